// What this process's in-process engine is doing, for health: per task, the passes running and
// when the last one ended. Process-wide: the engine starts from the instrumentation hook, which
// the bundler loads apart from the route that reads this.
import { processWide } from "../process-wide";

type Heartbeat = { intervalMs: number; inFlight: number; lastEndedAt: number | null; startedAt: number };

export function jobHeartbeats(): Map<string, Heartbeat> {
  return processWide("job-heartbeats", () => new Map<string, Heartbeat>());
}

/** A task's loop started (or stopped: `null`). */
export function trackTask(name: string, intervalMs: number | null) {
  if (intervalMs === null) jobHeartbeats().delete(name);
  else jobHeartbeats().set(name, { intervalMs, inFlight: 0, lastEndedAt: null, startedAt: Date.now() });
}

export function passStarted(name: string) {
  const beat = jobHeartbeats().get(name);
  if (beat) beat.inFlight += 1;
}

export function passEnded(name: string) {
  const beat = jobHeartbeats().get(name);
  if (!beat) return;
  beat.inFlight -= 1;
  beat.lastEndedAt = Date.now();
}

/**
 * Tasks whose loop looks dead: no pass running and none ended within twice the interval plus a
 * minute. An empty list with no tasks tracked means the engine is not running here at all.
 */
export function stalledTasks(now = Date.now()): string[] {
  return [...jobHeartbeats()]
    .filter(
      ([, beat]) =>
        beat.inFlight === 0 && now - (beat.lastEndedAt ?? beat.startedAt) > 2 * beat.intervalMs + 60_000,
    )
    .map(([name]) => name);
}
