import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

// Served for deployments with an Inngest server (SERVICE_JOB_ENGINE=inngest); signing keys come
// from INNGEST_SIGNING_KEY as the SDK documents.
export const { GET, POST, PUT } = serve({ client: inngest, functions });
