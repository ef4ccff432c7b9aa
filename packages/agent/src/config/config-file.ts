import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

// Everything the kit remembers between runs. Tokens and secrets live only here (mode 0600 in a
// 0700 directory) and are never printed.

const organization = z.object({ id: z.string(), name: z.string() });

const storedCredential = z.object({
  token: z.string(),
  credentialId: z.string(),
  agentName: z.string(),
  access: z.enum(["read", "write"]),
  organization,
  apiBaseUrl: z.string(),
});

const pendingSetup = z.object({
  setupToken: z.string(),
  checkinToken: z.string(),
  userCode: z.string(),
  loginUrl: z.string(),
  access: z.enum(["read", "write"]),
  expiresAt: z.string(),
  apiBaseUrl: z.string(),
});

const pendingRegistration = z.object({
  email: z.string(),
  projectName: z.string(),
  agentName: z.string(),
  integrationIntent: z.string(),
  ref: z.string().optional(),
  checkinToken: z.string(),
  // Shown again while pending: the user types it on the confirmation page.
  pairingCode: z.string().optional(),
  expiresAt: z.string(),
  apiBaseUrl: z.string(),
});

const webhook = z.object({
  endpointId: z.string(),
  url: z.string(),
  adapter: z.string(),
  signingSecret: z.string(),
  apiBaseUrl: z.string(),
});

export const configSchema = z.object({
  credential: storedCredential.optional(),
  pendingSetups: z.record(z.string(), pendingSetup).default({}),
  pendingRegistration: pendingRegistration.optional(),
  webhook: webhook.optional(),
});

export type StoredConfig = z.output<typeof configSchema>;
export type StoredCredential = z.output<typeof storedCredential>;
export type PendingSetup = z.output<typeof pendingSetup>;
export type PendingRegistration = z.output<typeof pendingRegistration>;

export const configFileName = "config.json";

export function configPath(home: string): string {
  return path.join(home, configFileName);
}

/** The stored configuration; an absent file is an empty one. */
export async function readConfig(home: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(configPath(home), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return configSchema.parse({});
    throw error;
  }
  const parsed = configSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `${configPath(home)} is not a crypto-checkout configuration; move it away and run setup again`,
    );
  }
  return parsed.data;
}

/**
 * Replaces config.json atomically: the new content goes to a 0600 temporary file in the same
 * directory, is flushed, then renamed over the old one, so a crash never leaves half a file and
 * the secret is never readable by others, not even for a moment.
 */
export async function writeConfig(home: string, config: StoredConfig): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone; a credential directory must be private.
  await chmod(home, 0o700);
  const temporary = path.join(home, `.${configFileName}.${randomBytes(6).toString("hex")}.tmp`);
  const file = await open(temporary, "wx", 0o600);
  try {
    await file.writeFile(`${JSON.stringify(config, null, 2)}\n`, "utf8");
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  try {
    await rename(temporary, configPath(home));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Read, change, write: the one way commands update the stored configuration. */
export async function updateConfig(
  home: string,
  change: (config: StoredConfig) => void,
): Promise<StoredConfig> {
  const config = await readConfig(home);
  change(config);
  await writeConfig(home, config);
  return config;
}
