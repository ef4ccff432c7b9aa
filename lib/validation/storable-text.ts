import { unstorableInput } from "crypto-checkout-agent/catalog";
import { invalidRequest } from "../errors";

/**
 * Throws a 400 naming a field (dotted path under `prefix`) whose key or text PostgreSQL could
 * not store, or when the input nests too deeply; the rule is the agent kit's, which the MCP
 * servers apply to tool arguments too.
 */
export function assertStorableInput(input: unknown, prefix: readonly (string | number)[] = []): void {
  const problem = unstorableInput(input, prefix);
  if (problem) throw invalidRequest(problem.code, problem.message, problem.param);
}
