import { z } from "zod";

export const recurringIntervals = ["day", "week", "month", "year"] as const;

export const recurringObject = z
  .object({ interval: z.enum(recurringIntervals), intervalCount: z.number().int() })
  .nullable()
  .meta({
    id: "RecurringPrice",
    description: "Billed again every intervalCount intervals; null for one payment",
  });
