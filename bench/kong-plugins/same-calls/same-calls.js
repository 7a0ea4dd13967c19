// The benchmark's reference: an access phase making the same PDK calls as flowgate's for an API-key call, deciding
// nothing, so flowgate's ratio to it is what its decisions cost on top of the unavoidable round trips.
class SameCalls {
  async access(kong) {
    await kong.request.getMethod();
    await kong.request.getPathWithQuery();
    await kong.request.getHeaders();
    await kong.service.request.setHeaders({ "x-flowgate-dispatch": "reference" });
  }
}

module.exports = { Plugin: SameCalls, Name: "same-calls", Version: "0.0.0", Priority: 1000, Schema: [] };
