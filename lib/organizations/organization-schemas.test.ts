import { describe, expect, it } from "vitest";
import { validationError } from "../validation/validation-error";
import { brandingFormSchema } from "./brand-schemas";
import { refundSettingsFormSchema, settlementWalletsFormSchema } from "./organization-schemas";

const address = "0x52908400098527886E0F7030069857D2E4169EE7"; // EIP-55 test vector

describe("settlementWalletsFormSchema (the dashboard's wallet form)", () => {
  it.each<[string, Record<string, string>, unknown]>([
    ["no addresses: clears the list", {}, []],
    [
      "lower-case and padded addresses: checksummed, in network order",
      { polygon: ` ${address.toLowerCase()} `, devnet: address },
      [
        { network: "devnet", address },
        { network: "polygon", address },
      ],
    ],
  ])("%s", (_case, form, wallets) => {
    expect(settlementWalletsFormSchema.parse(form)).toEqual({ settlementWallets: wallets });
  });

  it.each<[string, Record<string, string>, string, string]>([
    ["a bad checksum", { base: address.replace("E0F", "e0F") }, "base", "has a wrong EIP-55 checksum"],
    ["a non-address", { base: "0x1234" }, "base", "must be an EVM address"],
    ["an unknown network", { tron: address }, "tron", "Received unknown parameter: tron."],
    ["an EVM address on Solana", { solana: address }, "solana", "must be a Solana wallet address"],
  ])("rejects %s, naming the network", (_case, form, param, message) => {
    const parsed = settlementWalletsFormSchema.safeParse(form);
    if (parsed.success) throw new Error("the form was accepted");
    const error = validationError(parsed.error, form);
    expect(error.param).toBe(param);
    expect(error.message).toContain(message);
  });
});

describe("brandingFormSchema (the dashboard's branding form)", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
  it.each<[string, Record<string, string>, unknown]>([
    [
      "emptied fields clear the name and color, and keep the logo",
      {},
      { brandDisplayName: null, brandColor: null },
    ],
    [
      "a name, a color and a new logo",
      { brandDisplayName: "Shop", brandColor: "#1D4ED8", logoBase64: png },
      { brandDisplayName: "Shop", brandColor: "#1d4ed8", logo: { contentType: "image/png" } },
    ],
    ["remove the logo", { removeLogo: "on", logoBase64: png }, { logo: null }],
  ])("%s", (_case, form, expected) => {
    expect(brandingFormSchema.parse(form)).toMatchObject(expected as object);
  });

  it.each<[string, Record<string, string>, string]>([
    ["a light color", { brandColor: "#ffff00" }, "brandColor"],
    ["a text file as logo", { logoBase64: Buffer.from("hello").toString("base64") }, "logo"],
  ])("rejects %s", (_case, form, param) => {
    const parsed = brandingFormSchema.safeParse(form);
    if (parsed.success) throw new Error("the form was accepted");
    expect(validationError(parsed.error, form).param).toBe(param);
  });
});

describe("refundSettingsFormSchema (the dashboard's refund settings form)", () => {
  it.each<[string, Record<string, string>, unknown]>([
    [
      "a cap, the box unticked",
      { refundAgentDailyCapUsd: "100" },
      { refundAgentDailyCapUsd: "100", autoRefundOverpayments: false },
    ],
    [
      "a cap in cents, the box ticked",
      { refundAgentDailyCapUsd: "0.50", autoRefundOverpayments: "on" },
      { refundAgentDailyCapUsd: "0.50", autoRefundOverpayments: true },
    ],
    [
      "no agent refunds without an owner",
      { refundAgentDailyCapUsd: "0" },
      { refundAgentDailyCapUsd: "0", autoRefundOverpayments: false },
    ],
  ])("%s", (_case, form, expected) => {
    expect(refundSettingsFormSchema.parse(form)).toEqual(expected);
  });

  it.each<[string, Record<string, string>, string]>([
    ["no cap", {}, "refundAgentDailyCapUsd"],
    ["three decimals", { refundAgentDailyCapUsd: "1.005" }, "refundAgentDailyCapUsd"],
    ["a negative cap", { refundAgentDailyCapUsd: "-1" }, "refundAgentDailyCapUsd"],
    ["a leading zero", { refundAgentDailyCapUsd: "0100" }, "refundAgentDailyCapUsd"],
    ["ten digits", { refundAgentDailyCapUsd: "1000000000" }, "refundAgentDailyCapUsd"],
    [
      "a checkbox value no browser sends",
      { refundAgentDailyCapUsd: "1", autoRefundOverpayments: "true" },
      "autoRefundOverpayments",
    ],
    [
      "an unknown field",
      { refundAgentDailyCapUsd: "1", subscriptionGraceDays: "3" },
      "subscriptionGraceDays",
    ],
  ])("rejects %s", (_case, form, param) => {
    const parsed = refundSettingsFormSchema.safeParse(form);
    if (parsed.success) throw new Error("the form was accepted");
    expect(validationError(parsed.error, form).param).toBe(param);
  });
});
