// The SDKs' own request time-out, set far beyond ours so that our idle time-out (call-model.ts), which also covers a
// stream that stalls after its headers, always fires first and with our message.
export const SDK_TIMEOUT_MS = 60 * 60 * 1000;
