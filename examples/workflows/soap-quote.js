// Imitates a SOAP 1.1 service: reads the raw XML envelope and answers with a raw XML envelope.
export default function soapQuote({ FgRequestBody }) {
  const symbol = /<Symbol>([^<]*)<\/Symbol>/.exec(FgRequestBody ?? "")?.[1];
  if (!symbol) {
    return {
      FgResponseCode: 500,
      FgResponseContentType: "text/xml; charset=utf-8",
      FgResponseBody:
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
        "<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Symbol is required</faultstring></soap:Fault></soap:Body></soap:Envelope>",
    };
  }
  const price = (symbol.length * 17.25).toFixed(2);
  return {
    FgResponseCode: 200,
    FgResponseContentType: "text/xml; charset=utf-8",
    FgResponseBody:
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      `<soap:Body><GetQuoteResponse xmlns="http://example.com/quotes"><Symbol>${symbol}</Symbol><Price>${price}</Price></GetQuoteResponse></soap:Body></soap:Envelope>`,
  };
}
