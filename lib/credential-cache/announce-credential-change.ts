import { randomUUID } from "node:crypto";
import pg from "pg";
import { config } from "../config";
import { log } from "../log";
import { changedChannel, forgetCredentialsHere, heardChannel, listenerName } from "./credential-cache";

// An instance that does not answer (hung, or its connection just died unnoticed) must not hold
// a revocation up for long: its entries expire within the cache's TTL anyway.
const answerTimeoutMs = 2_000;
/** The announcer's application_name, for whoever reads pg_stat_activity. */
export const announcerName = "credential-announcer";

/**
 * After a committed change to what a credential proves (revoked, its organization's API version):
 * clears this process's credential cache, notifies every instance's, and returns once each
 * listening instance has said it cleared its own, so the next request anywhere reads the row.
 */
export async function announceCredentialChange(databaseUrl = config().databaseUrl): Promise<void> {
  forgetCredentialsHere();
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: announcerName });
  const change = `change:${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  // Closed by the server while this waits for answers (a restart, a failover): the wait runs out
  // on its own; unheard, the error would take the process down.
  client.on("error", (error) =>
    log.warn({ err: error }, "credential change: connection closed while announcing"),
  );
  try {
    await client.connect();
    await client.query(`LISTEN ${heardChannel}`);
    const { rows } = await client.query<{ listeners: number }>(
      `SELECT count(*)::int AS "listeners" FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1`,
      [listenerName],
    );
    let waiting = rows[0]?.listeners ?? 0;
    const answered = new Promise<void>((resolve) => {
      if (waiting === 0) resolve();
      client.on("notification", (message) => {
        if (message.payload === change && --waiting <= 0) resolve();
      });
    });
    await client.query("SELECT pg_notify($1, $2)", [changedChannel, change]);
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), answerTimeoutMs);
    });
    if ((await Promise.race([answered, timedOut])) === "timeout") {
      log.warn(
        { waiting },
        "credential change: some instances did not answer; their entries expire on their own",
      );
    }
  } catch (error) {
    // The change has committed; failing its caller now would only hide that.
    log.warn({ err: error }, "credential change not announced; other instances' entries expire on their own");
  } finally {
    clearTimeout(timer);
    await client.end().catch(() => {});
  }
}
