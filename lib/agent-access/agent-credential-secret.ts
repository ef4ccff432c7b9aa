export const agentCredentialPrefix = "sk_agent_";
export const agentCredentialShape = /^sk_agent_[0-9A-Za-z]{40}$/;
