// POST /orders with a JSON or form body of key:value pairs; FgUsername says who called.
export default async function createOrder({ customerId, product, quantity, FgUsername }) {
  if (!customerId || !product) return { status: "rejected: customerId and product are required" };
  const orderId = `ord-${customerId}-${product}-${Number(quantity ?? 1)}`;
  return { orderId, status: "placed", placedBy: FgUsername };
}
