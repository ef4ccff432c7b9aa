"use client";

import { useQuery } from "@tanstack/react-query";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/status-badge";
import type { serializeDeliveryPage, serializeWebhookDelivery } from "@/lib/webhooks/serialize-webhook";

type DeliveryPage = ReturnType<typeof serializeDeliveryPage>;
type Delivery = ReturnType<typeof serializeWebhookDelivery>;

const refreshMs = 2_000;

/** An endpoint's deliveries with every attempt, kept live by polling the deliveries API. */
export function DeliveryLog({
  endpointId,
  initial,
  redeliver,
}: {
  endpointId: string;
  initial: DeliveryPage;
  redeliver: FormAction<{ deliveryId: string }>;
}) {
  const { data, error } = useQuery({
    queryKey: ["webhook-deliveries", endpointId, initial.page, initial.rows],
    queryFn: async (): Promise<DeliveryPage> => {
      const response = await fetch(
        `/api/private/organization/webhook-endpoints/${endpointId}/deliveries?page=${initial.page}&rows=${initial.rows}`,
        { cache: "no-store" },
      );
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
      return body.data;
    },
    initialData: initial,
    refetchInterval: refreshMs,
  });

  return (
    <div>
      <p
        className="flex items-center gap-2 border-b border-slate-100 px-5 py-2 text-xs text-slate-500"
        aria-live="polite"
      >
        {error ? (
          <span className="text-red-700">Could not refresh: {error.message}. Retrying…</span>
        ) : (
          <>
            <span className="size-2 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
            Live: refreshes every {refreshMs / 1000} seconds
          </>
        )}
      </p>
      {data.data.length === 0 ? (
        <EmptyState title="No deliveries yet">
          Send a test event: it shows up here within seconds, with every attempt&apos;s status code, duration
          and your server&apos;s answer. Failed attempts are retried 10, 30, 90 and 270 seconds later.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.data.map((delivery) => (
            <li key={delivery.id}>
              <DeliveryItem delivery={delivery} redeliver={redeliver} />
            </li>
          ))}
        </ul>
      )}
      {data.total > data.rows ? (
        <Pagination page={data.page} rows={data.rows} total={data.total} query={{}} />
      ) : null}
    </div>
  );
}

function DeliveryItem({
  delivery,
  redeliver,
}: {
  delivery: Delivery;
  redeliver: FormAction<{ deliveryId: string }>;
}) {
  const waiting = delivery.status === "PENDING" || delivery.status === "COOLDOWN";
  return (
    <article aria-label={`Delivery of ${delivery.eventId}`} className="flex flex-col gap-3 px-5 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900">{delivery.eventType}</span>
            <StatusBadge status={delivery.status} />
          </div>
          <code className="break-all font-mono text-xs text-slate-500">{delivery.eventId}</code>
          <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
            <span>
              {delivery.attemptCount} {delivery.attemptCount === 1 ? "attempt" : "attempts"}
            </span>
            <span>
              Created <DateTime value={delivery.createdAt} precision="seconds" />
            </span>
            {waiting && delivery.nextAttemptAt ? (
              <span className="text-amber-800">
                Next attempt <DateTime value={delivery.nextAttemptAt} precision="seconds" />
              </span>
            ) : null}
          </p>
        </div>
        <ActionForm
          action={redeliver}
          submitLabel="Redeliver"
          pendingLabel="Queuing…"
          variant="secondary"
          success="Queued"
          className="flex flex-col items-end gap-2"
        >
          <input type="hidden" name="id" value={delivery.endpointId} />
          <input type="hidden" name="eventId" value={delivery.eventId} />
        </ActionForm>
      </div>
      {delivery.attempts.length > 0 ? (
        <ol aria-label="Attempts" className="flex flex-col gap-1.5">
          {delivery.attempts.map((attempt, index) => (
            <li
              // Attempts are only ever appended, oldest first.
              // biome-ignore lint/suspicious/noArrayIndexKey: the position is the attempt's identity
              key={index}
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-lg bg-slate-50 px-3 py-2 text-xs sm:grid sm:grid-cols-[2rem_13rem_minmax(7rem,auto)_4.5rem_minmax(0,1fr)]"
            >
              <span className="font-medium text-slate-500">#{index + 1}</span>
              <DateTime value={attempt.attemptedAt} precision="seconds" />
              <AttemptResult httpStatus={attempt.httpStatus} error={attempt.error} />
              <span className="tabular-nums text-slate-500 sm:text-right">{attempt.durationMs} ms</span>
              <code
                className="min-w-0 basis-full truncate font-mono text-slate-600"
                title={attempt.responseBody ?? undefined}
              >
                {attempt.responseBody || <span className="text-slate-400">(no response body)</span>}
              </code>
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  );
}

function AttemptResult({ httpStatus, error }: { httpStatus: number | null; error: string | null }) {
  if (httpStatus === null) return <span className="text-red-700">{error ?? "no response"}</span>;
  const ok = httpStatus >= 200 && httpStatus < 300;
  return (
    <span className={`font-medium tabular-nums ${ok ? "text-emerald-700" : "text-red-700"}`}>
      HTTP {httpStatus}
    </span>
  );
}
