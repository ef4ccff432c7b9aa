"use server";

import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { retrySweep, retrySweepSchema } from "@/lib/sweeps/retry-sweep";

// Money moves: owners only.
export const retrySweepAction = memberAction("sweeps.retry", retrySweepSchema, (member, input) =>
  retrySweep(db(), member.organization.id, input),
);
