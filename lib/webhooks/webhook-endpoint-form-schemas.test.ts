import { describe, expect, it } from "vitest";
import {
  createWebhookEndpointFormSchema,
  sendTestEventFormSchema,
  setWebhookEndpointEnabledFormSchema,
} from "./webhook-endpoint-form-schemas";

describe("webhook endpoint form schemas", () => {
  const form = { name: "Orders", url: "https://hooks.example.com/webhooks", adapter: "STRIPE" };

  it("reads a checked checkbox as enabled and an unchecked one (not sent) as disabled", () => {
    expect(createWebhookEndpointFormSchema.parse({ ...form, enabled: "true" })).toEqual({
      ...form,
      enabled: true,
    });
    expect(createWebhookEndpointFormSchema.parse(form).enabled).toBe(false);
  });

  it("keeps the API schema's rules", () => {
    expect(createWebhookEndpointFormSchema.safeParse({ ...form, adapter: "PAYPAL" }).success).toBe(false);
    expect(createWebhookEndpointFormSchema.safeParse({ ...form, url: "ftp://x" }).success).toBe(false);
    expect(createWebhookEndpointFormSchema.safeParse({ ...form, extra: "1" }).success).toBe(false);
    expect(createWebhookEndpointFormSchema.parse({ name: " Orders ", url: form.url })).toMatchObject({
      name: "Orders",
      adapter: "NONE",
    });
  });

  it("reads hidden true/false fields and rejects anything else", () => {
    expect(setWebhookEndpointEnabledFormSchema.parse({ id: "we_1", enabled: "false" }).enabled).toBe(false);
    expect(setWebhookEndpointEnabledFormSchema.parse({ id: "we_1", enabled: "true" }).enabled).toBe(true);
    expect(setWebhookEndpointEnabledFormSchema.safeParse({ id: "we_1", enabled: "on" }).success).toBe(false);
  });

  it("sends payment.confirmed unless another known event type is chosen", () => {
    expect(sendTestEventFormSchema.parse({ id: "we_1" }).type).toBe("payment.confirmed");
    expect(sendTestEventFormSchema.parse({ id: "we_1", type: "invoice.created" }).type).toBe(
      "invoice.created",
    );
    expect(sendTestEventFormSchema.safeParse({ id: "we_1", type: "charge.succeeded" }).success).toBe(false);
  });
});
