import { invalidRequest } from "../errors";

/**
 * NUL, which PostgreSQL cannot store in text (error 22021), and a UTF-16 surrogate without its
 * pair, which is not Unicode text at all. In `u` mode a well-formed pair is one code point, so
 * only a lone surrogate matches `\p{Cs}`.
 */
const unstorable = /[\0\p{Cs}]/u;

/** How deeply an input may nest: deeper JSON is refused before anything walks it recursively. */
export const maxInputDepth = 32;

export function isStorableText(value: string): boolean {
  return !unstorable.test(value);
}

const unstorableMessage = "must not contain NUL characters or unpaired UTF-16 surrogates";

/**
 * Throws a 400 naming a field (dotted path under `prefix`) whose key or text PostgreSQL could
 * not store, or when the input nests deeper than maxInputDepth. Walks with its own stack,
 * so no input is deep enough to overflow the call stack.
 */
export function assertStorableInput(input: unknown, prefix: readonly (string | number)[] = []): void {
  const pending: { value: unknown; path: readonly (string | number)[] }[] = [{ value: input, path: prefix }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (!isStorableText(value)) throw unstorableAt(path);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length - prefix.length >= maxInputDepth) {
      throw invalidRequest("input_too_deep", `The input nests more than ${maxInputDepth} levels deep.`);
    }
    for (const [key, item] of Object.entries(value)) {
      const itemPath = [...path, Array.isArray(value) ? Number(key) : key];
      if (!isStorableText(key)) throw unstorableAt(itemPath);
      pending.push({ value: item, path: itemPath });
    }
  }
}

function unstorableAt(path: readonly (string | number)[]) {
  // A bad key is named by the printable part of its path; its own characters are the problem.
  const param = path.map((part) => String(part).replace(/[\0\p{Cs}]/gu, "\uFFFD")).join(".");
  return param
    ? invalidRequest("parameter_invalid", `Invalid ${param}: ${unstorableMessage}.`, param)
    : invalidRequest("parameter_invalid", `The input ${unstorableMessage}.`);
}
