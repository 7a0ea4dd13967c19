// The answers the service gives of its own, shared by the Kong plugin and `flowgate serve` (docs/decisions.md).

/** The spec's answer for an unknown Site host, no matching template, or an ambiguous match. */
export const NO_SERVICE_MESSAGE = "There is no service at this location.";
