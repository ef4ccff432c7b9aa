"use client";

import { useLocale } from "next-intl";
import { useEffect, useState } from "react";
import { formatCountdown } from "./format";

export function Countdown({ until }: { until: string }) {
  const locale = useLocale();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="font-mono tabular-nums" aria-live="off">
      {formatCountdown(locale, Date.parse(until) - now)}
    </span>
  );
}
