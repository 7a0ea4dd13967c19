// GET /orders/{orderId}
export default function order({ orderId }) {
  return { orderId, status: "shipped" };
}
