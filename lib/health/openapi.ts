import { z } from "zod";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { healthBody } from "./health-schemas";

export const serviceOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/health/live",
    operationId: "liveness",
    summary: "Liveness: the process answers",
    tags: ["Service"],
    auth: ["none"],
    responses: { 200: { description: "Alive", schema: z.object({ status: z.literal("ok") }) } },
  },
  {
    method: "get",
    path: "/api/health",
    operationId: "health",
    summary: "Readiness: database, migrations, chain watchers, webhook backlog and job engine",
    tags: ["Service"],
    auth: ["none"],
    responses: {
      200: { description: "Every check passes", schema: healthBody },
      503: { description: "Some check fails (named in `checks`)", schema: healthBody },
    },
  },
  {
    method: "get",
    path: "/api/metrics",
    operationId: "metrics",
    summary: "Prometheus metrics (text exposition format)",
    description:
      "Requires `Authorization: Bearer <SERVICE_METRICS_TOKEN>`; answers 404 while no token is configured.",
    tags: ["Service"],
    auth: ["none"],
    responses: {
      200: { description: "Metrics in the Prometheus text format" },
      ...errorResponses(401, 404),
    },
  },
];
