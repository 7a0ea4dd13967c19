// Imitates a SOAP 1.1 service: reads the raw XML envelope and answers with a raw XML envelope, a SOAP fault (500)
// when the request lacks what it needs.
const SOAP = "http://schemas.xmlsoap.org/soap/envelope/";

function envelope(context, body) {
  return '<?xml version="1.0" encoding="utf-8"?>' + context.xml.build({ "soap:Envelope": { "@_xmlns:soap": SOAP, "soap:Body": body } });
}

export default function soapQuote({ FgRequestBody }, context) {
  let symbol;
  try {
    symbol = context.xml.parse(FgRequestBody ?? "")["soap:Envelope"]?.["soap:Body"]?.GetQuote?.Symbol;
  } catch (error) {
    context.log.warn("unreadable envelope:", error.message);
  }
  if (!symbol) {
    return {
      FgResponseCode: 500,
      FgResponseContentType: "text/xml; charset=utf-8",
      FgResponseBody: envelope(context, { "soap:Fault": { faultcode: "soap:Client", faultstring: "Symbol is required" } }),
    };
  }
  const price = (String(symbol).length * 17.25).toFixed(2);
  return {
    FgResponseCode: 200,
    FgResponseContentType: "text/xml; charset=utf-8",
    FgResponseBody: envelope(context, { GetQuoteResponse: { "@_xmlns": "http://example.com/quotes", Symbol: symbol, Price: price } }),
  };
}
