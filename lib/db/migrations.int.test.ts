import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { Prisma } from "../generated/prisma/client";
import { db } from "./client";
import { schemaPath, snapshotPath } from "./schema-engine";

describe("migrations", () => {
  it("were generated from the current schema.prisma (run `npm run db:migration -- <name>` after editing it)", async () => {
    expect(await readFile(snapshotPath, "utf8")).toBe(await readFile(schemaPath, "utf8"));
  });

  it.each(Object.values(Prisma.ModelName))("create a queryable table for %s", async (model) => {
    const delegate = (db() as unknown as Record<string, { count: () => Promise<number> }>)[
      model.charAt(0).toLowerCase() + model.slice(1)
    ];
    await expect(delegate.count()).resolves.toBeTypeOf("number");
  });
});
