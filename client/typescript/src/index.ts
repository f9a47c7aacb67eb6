// @platen/client: the Platen API from TypeScript and JavaScript.
export { Platen, Documents, Templates, Webhooks, WalletAPI, Keys, Signing, newIdempotencyKey, type PlatenOptions } from "./client.js";
export { PlatenError, parseRetryAfter, type ErrorCode, type Violation } from "./errors.js";
export { operations, type Operation, type OperationName } from "./operations.js";
export { backoff, type FetchLike } from "./http.js";
export {
  Realtime,
  type RealtimeOptions,
  type RealtimeState,
  type RealtimeEvent,
  type RealtimeGenerateOptions,
  type DocumentFrameType,
  type SubscribeOptions,
  type Subscription,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./realtime.js";
export { verifyWebhook, parseWebhook, constructWebhook, type VerifyOptions, type WebhookPayload, type RawWebhookPayload } from "./webhooks.js";
export type * from "./types.js";
