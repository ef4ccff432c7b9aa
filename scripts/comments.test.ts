// Comments give their reason inline or point to a file in the repository (docs/…, a path): a
// reader cannot open a numbered section of a document kept elsewhere, an issue or a decision log.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./test-support/import-graph";

const outsideReference =
  /\bspec(?:ification)?\s*§?\s*\d|\bthe spec\b|§\s*\d|\bdecisions(?:\.md|\s+doc)|\bissues?\s*#?\d|\bcontract\s+C\d|interface[- ]spec/i;

/** The comments of a source file, each with the line it starts on. */
function commentsOf(text: string): { line: number; text: string }[] {
  return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((match) => ({
    line: text.slice(0, match.index).split("\n").length,
    text: match[0],
  }));
}

/** Comments of `text` that cite something outside the repository, as `line: comment`. */
function outsideReferences(text: string): string[] {
  return commentsOf(text)
    .filter((comment) => outsideReference.test(comment.text))
    .map((comment) => `${comment.line}: ${comment.text.trim()}`);
}

const folders = ["app", "components", "lib", "inngest", "scripts", "packages/agent/src", "e2e", "bench"];
const skipped = new Set(["node_modules", "generated", ".next", "dist"]);

function codeFiles(directory: string): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : codeFiles(relative);
    return /\.(tsx?|mjs|js)$/.test(entry.name) ? [relative] : [];
  });
}

const rootFiles = readdirSync(root).filter((name) => /\.(ts|mjs)$/.test(name));
// This file's table plants such comments on purpose.
const self = "scripts/comments.test.ts";

describe("comments", () => {
  it("cite only what is in the repository", () => {
    const files = [...folders.flatMap(codeFiles), ...rootFiles, "prisma/schema.prisma"].filter(
      (file) => file !== self,
    );
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      outsideReferences(readFileSync(path.join(root, file), "utf8")).map((hit) => `${file}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ["// First-payment invoices are due within an hour (spec 6.5).", true],
    ["/** Spec 2.2: the merchant sends the final amount. */", true],
    ["// Without a session, the spec lets the server refuse the stream.", true],
    ["// The error envelope of the decisions doc.", true],
    ["// Tokens live 10 minutes (decisions.md).", true],
    ["// A recurring price (issue 15 item 1).", true],
    ["// Issue #19: a real SIGTERM mid-burst.", true],
    ["// The authorization server (issue 12, contract C4).", true],
    ["/* As the interface-spec says. */", true],
    ["// See § 4.3.", true],
    ['// The error envelope (docs/api.md, "Errors").', false],
    ['// Settlement changes wait (README, "Where money goes"); decisions of owners are emailed.', false],
    ["// e2e/mcp.spec.ts runs the same tools.", false],
    ['const text = "issue 15"; // a string, not a comment', false],
  ])("%s is refused: %s", (source, refused) => {
    expect(outsideReferences(source).length > 0).toBe(refused);
  });
});
