/**
 * A block explorer's page for a transaction or an address: the configured base's path plus
 * `/tx/…` or `/address/…`, its query kept, so one base serves a cluster that the explorer names
 * in the query (`https://explorer.solana.com?cluster=devnet`).
 */
export function explorerPage(explorerUrl: string, kind: "address" | "tx", value: string): string {
  const url = new URL(explorerUrl);
  url.pathname = `${url.pathname.replace(/\/$/, "")}/${kind}/${encodeURIComponent(value)}`;
  return url.toString();
}
