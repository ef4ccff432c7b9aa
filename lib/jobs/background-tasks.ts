import type { PeriodicTask } from "./periodic-task";

// Every periodic task of the in-process engine. Each is a thin wrapper over a domain function
// that the Inngest functions in inngest/ call too, so no logic lives only in one engine.
export const backgroundTasks: PeriodicTask[] = [];
