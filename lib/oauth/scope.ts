import { supportedScopes } from "./oauth-settings";

export type Access = "read" | "write";

/**
 * A requested `scope` as the stored form ("read" or "read write": write implies read), or null
 * when it names a scope we do not have. An absent scope asks for the least: read (write is asked
 * for by name, and the consent page says so).
 */
export function normalizeScope(requested: string | undefined | null): string | null {
  const names = (requested ?? "").split(" ").filter(Boolean);
  if (names.length === 0) return "read";
  if (!names.every((name) => (supportedScopes as readonly string[]).includes(name))) return null;
  return names.includes("write") ? "read write" : "read";
}

export function accessOfScope(scope: string): Access {
  return scope.split(" ").includes("write") ? "write" : "read";
}
