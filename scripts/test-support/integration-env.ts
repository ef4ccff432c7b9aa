// Settings every integration test file runs with: a fixed sealing key, and webhook receivers on
// loopback allowed (test receivers listen on 127.0.0.1).
process.env.SERVICE_SECRET_KEY ??= Buffer.alloc(32, 7).toString("base64");
process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS ??= "true";
