import { z } from "zod";

type Fields<T> = T extends z.ZodObject<infer S> ? keyof S & string : never;
type ContractFields<I> = I extends readonly z.ZodObject[] ? Fields<I[number]> : Fields<I>;

/**
 * A route's parsing schema derived from its contract's input (packages/agent/src/contracts): a
 * strict object of exactly the contract's fields, each parsed by the API's stricter rule (its
 * transform, message and example). A rule for a field the contract lacks, or a contract field
 * without a rule, is a type error, and throws when the module loads if types were bypassed, so
 * the route's fields cannot drift from what the MCP tool, CLI and OpenAPI operation derive.
 * A schema several contracts share (a route's own and its parts, `Contract.part`; one path
 * parameter) takes all their fields.
 * The rules' order is the fields' order in the OpenAPI document.
 */
export function refineContractInput<
  const I extends z.ZodObject | readonly z.ZodObject[],
  const R extends Record<ContractFields<I>, z.ZodType> & Record<Exclude<keyof R, ContractFields<I>>, never>,
>(input: I, rules: R): z.ZodObject<R, z.core.$strict> {
  const inputs: readonly z.ZodObject[] = Array.isArray(input) ? input : [input as z.ZodObject];
  const contractFields = [...new Set(inputs.flatMap((object) => Object.keys(object.shape)))].sort();
  const ruled = Object.keys(rules).sort();
  if (contractFields.join() !== ruled.join()) {
    throw new Error(
      `Rules for [${ruled.join(", ")}] do not match the contract's [${contractFields.join(", ")}]`,
    );
  }
  return z.strictObject(rules);
}
