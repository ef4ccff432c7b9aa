import { readFileSync } from "node:fs";
import path from "node:path";

// Knowledge resources: Markdown files in the package's resources/ folder, versioned with the app and served by both
// servers. `{base_url}` in the text is replaced by the server's own URL.

export type KnowledgeResource = {
  name: string;
  uri: string;
  title: string;
  description: string;
  file: string;
};

export const knowledgeResources: KnowledgeResource[] = [
  {
    name: "quickstart",
    uri: "crypto-checkout://docs/quickstart",
    title: "Agent quickstart",
    description: "Connect, take a payment, fulfil on the webhook: which tool for which job.",
    file: "quickstart.md",
  },
  {
    name: "paylinks",
    uri: "crypto-checkout://docs/paylinks",
    title: "Paylinks",
    description: "Reusable payment links: when to use one, create or reuse, edit and disable.",
    file: "paylinks.md",
  },
  {
    name: "webhooks",
    uri: "crypto-checkout://docs/webhooks",
    title: "Webhooks",
    description:
      "Events, raw-body signature verification in Node.js (Next.js, Express) and Python, the STRIPE adapter, testing.",
    file: "webhooks.md",
  },
  {
    name: "client-setup",
    uri: "crypto-checkout://docs/client-setup",
    title: "Client setup",
    description: "Add the MCP server to Claude Code, Cursor, VS Code or a header-only client.",
    file: "client-setup.md",
  },
];

const cache = new Map<string, string>();

/** The resource's Markdown with `{base_url}` filled in. */
export function readKnowledgeResource(
  resource: KnowledgeResource,
  options: { baseUrl: string; directory?: string },
): string {
  // The package's resources/ folder (two levels up from src/catalog and dist/catalog alike) unless
  // the caller knows better: a bundler moves modules, not Markdown.
  const file = path.join(
    options.directory ?? path.join(import.meta.dirname, "../../resources"),
    resource.file,
  );
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(file, "utf8");
    cache.set(file, text);
  }
  return text.replaceAll("{base_url}", options.baseUrl);
}
