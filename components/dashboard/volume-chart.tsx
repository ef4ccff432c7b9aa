"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

type Point = { date: string; volumeUsd: string; invoices: number };

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** Confirmed volume per day. Amounts are plotted as numbers: a chart's bar heights need not be exact. */
export function VolumeChart({ series }: { series: Point[] }) {
  const data = series.map((point) => ({ ...point, volume: Number(point.volumeUsd) }));
  return (
    <div
      className="h-64 w-full min-w-0 overflow-hidden"
      role="img"
      aria-label="Confirmed volume per day over the last 30 days"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis
            dataKey="date"
            tickFormatter={(date: string) => date.slice(5)}
            tick={{ fontSize: 12, fill: "#64748b" }}
            tickLine={false}
            axisLine={false}
            minTickGap={24}
          />
          <YAxis
            tickFormatter={(value: number) => usd.format(value)}
            tick={{ fontSize: 12, fill: "#64748b" }}
            tickLine={false}
            axisLine={false}
            width={64}
          />
          <Tooltip
            cursor={{ fill: "#eef2ff" }}
            formatter={(value) => [usd.format(Number(value)), "Confirmed"]}
            labelFormatter={(label) => String(label)}
          />
          <Bar dataKey="volume" fill="#4338ca" radius={[4, 4, 0, 0]} maxBarSize={28} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
