export const apiKeyPrefix = "sk_live_";
export const apiKeyShape = /^sk_live_[0-9A-Za-z]{40}$/;
