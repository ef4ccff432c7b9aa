import { readFile } from "node:fs/promises";
import { usageError } from "../http/errors";

export type Json = Record<string, unknown>;

/** `--json` values: inline JSON, `@file` or `-` for stdin. */
export async function readJsonArgument(value: string, param = "json"): Promise<Json> {
  const text =
    value === "-"
      ? await readStdin()
      : value.startsWith("@")
        ? await readFile(value.slice(1), "utf8")
        : value;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // reported below
  }
  throw usageError("invalid_json", `--${param} must be a JSON object (inline, @file or - for stdin)`, param);
}

/** Raw text exactly as given: inline, `@file` or `-` for stdin (a webhook body must stay byte-exact). */
export async function readRawArgument(value: string): Promise<string> {
  if (value === "-") return readStdin();
  return value.startsWith("@") ? readFile(value.slice(1), "utf8") : value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
