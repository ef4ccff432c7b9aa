"use server";

import { z } from "zod";
import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { createPaylink } from "@/lib/paylinks/create-paylink";
import { disablePaylink } from "@/lib/paylinks/disable-paylink";
import { editPaylink } from "@/lib/paylinks/edit-paylink";
import { createPaylinkSchema, disablePaylinkSchema, editPaylinkSchema } from "@/lib/paylinks/paylink-schemas";

const fields = (form: unknown) => form as Record<string, string>;

export const createPaylinkAction = memberAction(
  "paylinks.write",
  createPaylinkSchema,
  async (member, input) => {
    const paylink = await createPaylink(db(), member.organization.id, input);
    return { id: paylink.id, name: paylink.name };
  },
);

// The edit form always shows the description, so an emptied one (dropped as unsent) clears it.
export const editPaylinkAction = memberAction(
  "paylinks.write",
  z.preprocess((form) => ({ description: null, ...fields(form) }), editPaylinkSchema),
  async (member, input) => {
    await editPaylink(db(), member.organization.id, input);
    return { id: input.id };
  },
);

export const enablePaylinkAction = memberAction(
  "paylinks.write",
  z.preprocess((form) => ({ ...fields(form), enabled: true }), editPaylinkSchema),
  async (member, input) => {
    await editPaylink(db(), member.organization.id, input);
    return { id: input.id };
  },
);

// Only ConfirmAction's second step sends `confirm`, so the API's explicit confirmation holds.
export const disablePaylinkAction = memberAction(
  "paylinks.write",
  z.preprocess((form) => {
    const { confirm, ...rest } = fields(form);
    return { ...rest, ...(confirm === undefined ? {} : { confirm: confirm === "true" }) };
  }, disablePaylinkSchema),
  async (member, input) => {
    await disablePaylink(db(), member.organization.id, input);
    return { id: input.id };
  },
);
