// The tool-schema portability rules of the MCP Inspector's `tools/list --strict`, ported: the
// Inspector's CLI (2.x) needs Node.js 22.19, and every locked package must run on the Node.js
// that package.json promises (scripts/locked-engines.test.ts). A finding means that some client
// mapping tool schemas onto a narrower dialect (Gemini's function declarations: one `type` per
// schema, no remote references) may reject the tool or drop the constraint.

export type PortabilityFinding = {
  rule: "boolean-schema" | "type-union" | "remote-ref" | "untyped-schema";
  severity: "error" | "warning";
  /** Dotted path in the schema, e.g. `properties.email.type`. */
  path: string;
};

/** Keywords whose value may be a bare boolean. */
const booleanValued = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
]);
const subschema = [
  "items",
  "contains",
  "not",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "contentSchema",
];
const subschemaLists = ["allOf", "anyOf", "oneOf", "prefixItems"];
const subschemaMaps = [
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "$defs",
  "definitions",
];
/** Keywords that constrain a value; a schema with none (and no if/then pair) accepts anything. */
const constraining = new Set([
  ...["type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  ...["maxLength", "minLength", "pattern", "format", "contentMediaType", "contentEncoding", "contentSchema"],
  ...["maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties"],
  ...["required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains"],
  ...["additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties"],
  ...["unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef"],
  "$recursiveRef",
]);
const jsonTypes = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
const maxDepth = 64;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const join = (parent: string, key: string | number) =>
  typeof key === "number" ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

function eachSubschema(
  node: Node,
  path: string,
  visit: (child: unknown, path: string, keyword: string) => void,
) {
  for (const keyword of subschemaMaps) {
    const map = node[keyword];
    if (isNode(map))
      for (const [name, child] of Object.entries(map)) visit(child, join(join(path, keyword), name), keyword);
  }
  for (const keyword of subschemaLists) {
    const list = node[keyword];
    if (Array.isArray(list))
      for (const [index, child] of list.entries()) visit(child, join(join(path, keyword), index), keyword);
  }
  for (const keyword of subschema) {
    if (!(keyword in node)) continue;
    const value = node[keyword];
    if (keyword === "items" && Array.isArray(value)) {
      for (const [index, child] of value.entries()) visit(child, join(join(path, keyword), index), keyword);
    } else visit(value, join(path, keyword), keyword);
  }
}

function declaresId(node: unknown, depth = 0): boolean {
  if (depth > maxDepth || !isNode(node)) return false;
  if (typeof node.$id === "string" && node.$id !== "") return true;
  let found = false;
  eachSubschema(node, "", (child) => {
    found ||= declaresId(child, depth + 1);
  });
  return found;
}

/** What the Inspector's strict check reports about one JSON Schema. */
export function portabilityFindings(schema: unknown): PortabilityFinding[] {
  const findings: PortabilityFinding[] = [];
  const embeddedIds = declaresId(schema);
  const walk = (node: unknown, path: string, keyword: string | undefined, depth: number) => {
    if (depth > maxDepth) return;
    if (typeof node === "boolean") {
      if (keyword === undefined || !booleanValued.has(keyword)) {
        findings.push({ rule: "boolean-schema", severity: "error", path });
      }
      return;
    }
    if (!isNode(node)) return;
    const { type, $ref } = node;
    if (
      Array.isArray(type) &&
      type.length > 0 &&
      type.every((one) => typeof one === "string" && jsonTypes.has(one)) &&
      new Set(type).size === type.length
    ) {
      findings.push({ rule: "type-union", severity: "warning", path });
    }
    if (typeof $ref === "string" && $ref !== "" && !$ref.startsWith("#") && !embeddedIds) {
      findings.push({ rule: "remote-ref", severity: "warning", path });
    }
    const constrains =
      Object.keys(node).some((key) => constraining.has(key)) ||
      ("if" in node && ("then" in node || "else" in node));
    if (!constrains && keyword !== "not")
      findings.push({ rule: "untyped-schema", severity: "warning", path });
    eachSubschema(node, path, (child, childPath, childKeyword) =>
      walk(child, childPath, childKeyword, depth + 1),
    );
  };
  walk(schema, "", undefined, 0);
  return findings;
}

/** Every finding in a tools/list answer, as `tool inputSchema|outputSchema.path: rule`. */
export function toolListFindings(tools: { name: string; inputSchema?: unknown; outputSchema?: unknown }[]) {
  return tools.flatMap((tool) =>
    (["inputSchema", "outputSchema"] as const).flatMap((kind) =>
      tool[kind] === undefined
        ? []
        : portabilityFindings(tool[kind]).map(
            (finding) =>
              `${tool.name} ${finding.path ? `${kind}.${finding.path}` : kind}: ${finding.rule} (${finding.severity})`,
          ),
    ),
  );
}
