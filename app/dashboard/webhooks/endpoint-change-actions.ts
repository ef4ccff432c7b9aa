import type { EndpointChangeActions } from "@/components/webhooks/endpoint-actions";
import {
  deleteWebhookEndpointAction,
  rotateWebhookSecretAction,
  setWebhookEndpointEnabledAction,
} from "./actions";

// The server actions behind an endpoint's owner controls, handed to the client component as props
// (components never import app/). Not in actions.ts: a "use server" module exports only actions.
export const endpointChangeActions: EndpointChangeActions = {
  setEnabled: setWebhookEndpointEnabledAction,
  rotate: rotateWebhookSecretAction,
  remove: deleteWebhookEndpointAction,
};
