import { randomBase62 } from "../ids";

export const requestIdHeader = "x-request-id";
const acceptable = /^[A-Za-z0-9_.:-]{8,128}$/;

/** A caller's own request id is kept when it is sane, so traces join up; otherwise a new one. */
export function requestIdFor(headers: Headers): string {
  const given = headers.get(requestIdHeader);
  return given && acceptable.test(given) ? given : `req_${randomBase62(20)}`;
}
