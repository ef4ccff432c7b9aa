import { buttonStyles } from "@/components/ui/button-styles";
import { Card } from "@/components/ui/card";
import { inputStyles } from "@/components/ui/field";
import { formatMoney, formatTokenAmountShort, maxShownTokenDecimals } from "@/components/ui/format";
import { monthOf } from "@/lib/reports/month-range";
import type { MonthSummary as Summary } from "@/lib/reports/summarize-month";

const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const shown = (amount: string, token: string) =>
  formatTokenAmountShort(amount, { symbol: token, decimals: maxShownTokenDecimals });

/**
 * Per UTC day, what came in (bars up) and what went back (bars down), in USD on one scale: an
 * inline SVG drawn on the server, so the card needs no script. Heights need not be exact.
 */
function DailyBars({ days }: { days: Summary["days"] }) {
  const received = days.map((day) => Number(day.receivedUsd));
  const refunded = days.map((day) => Number(day.refundedUsd));
  const top = Math.max(...received, 0);
  const bottom = Math.max(...refunded, 0);
  const height = 100;
  const span = top + bottom || 1;
  const baseline = bottom === 0 && top === 0 ? height : (height * top) / span;
  const width = 10;
  return (
    <svg
      viewBox={`0 0 ${days.length * width} ${height}`}
      preserveAspectRatio="none"
      className="h-24 w-full"
      role="img"
      aria-label={`Per day in USD: received up to ${formatMoney(top.toFixed(2), "USD")}, refunded up to ${formatMoney(bottom.toFixed(2), "USD")}`}
    >
      <line x1={0} x2={days.length * width} y1={baseline} y2={baseline} stroke="#cbd5e1" strokeWidth={0.5} />
      {days.map((day, index) => (
        <g key={day.date}>
          {received[index] > 0 ? (
            <rect
              x={index * width + 1.5}
              width={width - 3}
              y={baseline - (height * received[index]) / span}
              height={(height * received[index]) / span}
              fill="#4338ca"
            />
          ) : null}
          {refunded[index] > 0 ? (
            <rect
              x={index * width + 1.5}
              width={width - 3}
              y={baseline}
              height={(height * refunded[index]) / span}
              fill="#d97706"
            />
          ) : null}
        </g>
      ))}
    </svg>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums text-slate-900">{formatMoney(value, "USD")}</dd>
    </div>
  );
}

/**
 * The month's books on the overview: received, refunded and net in USD at the locked quotes and
 * per token, a bar per day, and a GET form to pick one of the last twelve months.
 */
export function MonthSummary({ summary, now = new Date() }: { summary: Summary; now?: Date }) {
  const months = Array.from({ length: 12 }, (_, back) => monthOf(now, back));
  if (!months.includes(summary.month)) months.push(summary.month);
  const title = monthName.format(summary.from);
  return (
    <Card
      title={`Books for ${title}`}
      description="UTC month; USD at each payment's locked quote, refunds in the month they succeeded"
      actions={
        <form method="get" aria-label="Choose the month" className="flex items-end gap-2">
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Month
            <select name="month" defaultValue={summary.month} className={inputStyles}>
              {months.map((month) => (
                <option key={month} value={month}>
                  {monthName.format(new Date(`${month}-01T00:00:00Z`))}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonStyles.secondary}>
            Show
          </button>
        </form>
      }
    >
      <div className="flex flex-col gap-4 p-5">
        <dl className="grid grid-cols-3 gap-3">
          <Total label="Received" value={summary.usd.received} />
          <Total label="Refunded" value={summary.usd.refunded} />
          <Total label="Net" value={summary.usd.net} />
        </dl>
        {summary.tokens.length === 0 ? (
          <p className="text-sm text-slate-500">No payments or refunds in {title}.</p>
        ) : (
          <>
            <table className="w-full text-sm">
              <caption className="sr-only">By token</caption>
              <thead>
                <tr className="text-left text-xs text-slate-500">
                  {["Token", "Received", "Refunded", "Net"].map((heading, index) => (
                    <th key={heading} scope="col" className={`py-1 font-medium ${index ? "text-right" : ""}`}>
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 tabular-nums text-slate-900">
                {summary.tokens.map((row) => (
                  <tr key={row.token}>
                    <th scope="row" className="py-1.5 text-left font-medium">
                      {row.token}
                    </th>
                    <td className="py-1.5 text-right">{shown(row.received, row.token)}</td>
                    <td className="py-1.5 text-right">{shown(row.refunded, row.token)}</td>
                    <td className="py-1.5 text-right">{shown(row.net, row.token)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <DailyBars days={summary.days} />
            <p className="flex justify-between text-xs text-slate-500">
              <span>{summary.days[0].date}</span>
              <span>
                <span className="mr-1 inline-block size-2 bg-brand-600" aria-hidden="true" />
                received
                <span className="mr-1 ml-3 inline-block size-2 bg-amber-600" aria-hidden="true" />
                refunded
              </span>
              <span>{summary.days.at(-1)?.date}</span>
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
