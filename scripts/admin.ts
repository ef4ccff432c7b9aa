// Operator commands: `npm run admin -- <command> [options]`. They work on DATABASE_URL, or on the
// embedded database (including that of a running `npm start`).
import { Command, InvalidArgumentError } from "commander";
import type { Db } from "../lib/db/client";

function emailAddress(value: string) {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new InvalidArgumentError("not an email address");
  return value;
}

function nonEmpty(value: string) {
  if (!value.trim()) throw new InvalidArgumentError("must not be empty");
  return value;
}

async function onDatabase<T>(run: (database: Db) => Promise<T>): Promise<T> {
  // Loaded once a command runs: the database modules (Prisma, viem through the configuration)
  // take about a second of CPU to load, which a usage error or --help need not wait for.
  const [{ closeDb, createDb }, { withDatabase }] = await Promise.all([
    import("../lib/db/client"),
    import("./database"),
  ]);
  return withDatabase(async (url) => {
    const database = createDb(url, 1);
    try {
      return await run(database);
    } finally {
      await closeDb(database);
    }
  });
}

function print(json: boolean, data: Record<string, unknown>, text: string) {
  console.log(json ? JSON.stringify(data) : text);
}

const program = new Command("admin").description("Crypto Checkout operator commands").exitOverride();

program
  .command("org:create")
  .description("create an organization with an owner and print its first API key")
  .requiredOption("--name <name>", "organization name", nonEmpty)
  .requiredOption("--email <email>", "owner email", emailAddress)
  .option("--json", "print JSON")
  .action(async (options: { name: string; email: string; json?: boolean }) => {
    const { createOrganization } = await import("../lib/organizations/create-organization");
    const result = await onDatabase((database) =>
      createOrganization(database, { name: options.name, ownerEmail: options.email }),
    );
    print(
      Boolean(options.json),
      { organizationId: result.organization.id, apiKey: result.apiKey },
      `organization ${result.organization.id}\napi key (shown once): ${result.apiKey}`,
    );
  });

program
  .command("apikey:create")
  .description("create another API key for an organization")
  .requiredOption("--org <organizationId>", "organization id")
  .option("--name <name>", "label for the key", nonEmpty)
  .option("--json", "print JSON")
  .action(async (options: { org: string; name?: string; json?: boolean }) => {
    const { createApiKey } = await import("../lib/api-keys/create-api-key");
    const result = await onDatabase(async (database) => {
      const organization = await database.organization.findUnique({ where: { id: options.org } });
      if (!organization) throw new Error(`no organization ${options.org}`);
      return createApiKey(database, { organizationId: organization.id, name: options.name });
    });
    print(
      Boolean(options.json),
      { apiKeyId: result.apiKey.id, apiKey: result.secret },
      `api key ${result.apiKey.id} (shown once): ${result.secret}`,
    );
  });

program
  .command("apikey:revoke")
  .description("revoke an API key")
  .requiredOption("--org <organizationId>", "organization id")
  .requiredOption("--key <apiKeyId>", "API key id (key_…)")
  .option("--json", "print JSON")
  .action(async (options: { org: string; key: string; json?: boolean }) => {
    const { revokeApiKey } = await import("../lib/api-keys/revoke-api-key");
    const key = await onDatabase((database) =>
      revokeApiKey(database, { organizationId: options.org, apiKeyId: options.key }),
    );
    print(
      Boolean(options.json),
      { apiKeyId: key.id, revokedAt: key.revokedAt?.toISOString() },
      `revoked ${key.id}`,
    );
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = (error as { code?: string }).code;
  if (code === "commander.helpDisplayed" || code === "commander.version") process.exit(0);
  if (!code?.startsWith("commander.")) console.error(`error: ${(error as Error).message}`);
  process.exit(2);
}
