// GET /status, anonymous: which Site Environment answered (try ?_profile=Test).
export default function status(inputs, context) {
  return { status: "ok", environment: context.environment };
}
