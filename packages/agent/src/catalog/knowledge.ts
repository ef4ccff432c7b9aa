import { type PromptDefinition, prompts } from "./prompts";
import { knowledgeResources, readKnowledgeResource } from "./resources";

// Registers the knowledge resources and prompts on an MCP server, the same for the remote
// server and the local one. Typed by the few methods it calls so the catalogue needs no SDK.

type Markdown = { uri: string; mimeType: "text/markdown"; text: string };
type PromptMessage =
  | { role: "user"; content: { type: "text"; text: string } }
  | { role: "user"; content: { type: "resource"; resource: Markdown } };

export type KnowledgeServer = {
  registerResource(
    name: string,
    uri: string,
    config: { title: string; description: string; mimeType: string },
    read: (uri: URL) => { contents: Markdown[] },
  ): unknown;
  registerPrompt(
    name: string,
    config: { title: string; description: string; argsSchema: PromptDefinition["argsSchema"] },
    build: (args: Record<string, string | undefined>) => { messages: PromptMessage[] },
  ): unknown;
};

/** `{base_url}` in the texts becomes `baseUrl`; `directory` holds the Markdown if not beside this module. */
export function registerKnowledge(server: KnowledgeServer, options: { baseUrl: string; directory?: string }) {
  const markdown = (resource: (typeof knowledgeResources)[number], uri = resource.uri): Markdown => ({
    uri,
    mimeType: "text/markdown",
    text: readKnowledgeResource(resource, options),
  });
  for (const resource of knowledgeResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: "text/markdown" },
      (uri) => ({ contents: [markdown(resource, uri.href)] }),
    );
  }
  for (const prompt of prompts) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema },
      (args) => ({
        messages: [
          {
            role: "user",
            content: { type: "text", text: prompt.text(args).replaceAll("{base_url}", options.baseUrl) },
          },
          ...prompt.resources.flatMap((name) =>
            knowledgeResources
              .filter((resource) => resource.name === name)
              .map((resource) => ({
                role: "user" as const,
                content: { type: "resource" as const, resource: markdown(resource) },
              })),
          ),
        ],
      }),
    );
  }
}
