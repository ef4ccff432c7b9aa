// Copies of the migrated template database, made ahead of the test files that take them: a copy
// (CREATE DATABASE … TEMPLATE) takes a second or more on a busy machine, which each file waited
// for before its first test. A file takes a ready copy by renaming it, so no two files get the
// same one; with none ready it makes its own as before.
import pg from "pg";

/** The name prefix of the ready copies of `templateName`. */
export const readyCopyPrefix = (templateName: string) => `${templateName}_ready_`;

/** Keeps `ahead` copies of the template ready until stopped; stopping drops those not taken. */
export function startReadyCopies(serverUrl: string, templateName: string, ahead: number) {
  const prefix = readyCopyPrefix(templateName);
  const ready = async (admin: pg.Client) =>
    (
      await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
        [prefix],
      )
    ).rows.map((row) => row.datname);
  let stopped = false;
  const filling = (async () => {
    const admin = new pg.Client(serverUrl);
    await admin.connect();
    try {
      for (let made = 0; !stopped; ) {
        if ((await ready(admin)).length < ahead)
          await admin.query(`CREATE DATABASE "${prefix}${made++}" TEMPLATE "${templateName}"`);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const name of await ready(admin)) await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    } finally {
      await admin.end();
    }
  })();
  // Held until stop, which reports it: a rejection nobody awaits yet would fail the run unnamed.
  const failure = filling.then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    stop: async () => {
      stopped = true;
      const error = await failure;
      if (error) throw error;
    },
  };
}

/** Renames a ready copy of the template to `name`; false when none is ready. */
export async function takeReadyCopy(admin: pg.Client, templateName: string, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY oid",
    [readyCopyPrefix(templateName)],
  );
  for (const { datname } of rows) {
    try {
      await admin.query(`ALTER DATABASE "${datname}" RENAME TO "${name}"`);
      return true;
    } catch {
      // Another file took it first.
    }
  }
  return false;
}
