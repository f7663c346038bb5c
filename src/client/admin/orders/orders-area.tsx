// The dashboard's Orders (docs/dashboard.md, "Orders"): /admin/orders (the list, its search and filters in the
// address's query) and /admin/orders/<id> (one order, its story and its refunds).
import { NoSuchScreen } from '../kit/no-such-screen.js';
import type { AreaProps } from '../area.js';
import { OrderListScreen } from './order-list-screen.js';
import { OrderScreen } from './order-screen.js';
import './orders.css';

export default function OrdersArea({ rest }: AreaProps) {
  const [id, ...more] = rest;
  if (id === undefined) return <OrderListScreen />;
  if (!/^\d{1,15}$/.test(id) || more.length > 0) {
    return (
      <NoSuchScreen
        heading="No such order"
        says="This address names no order."
        back={{ to: '/admin/orders', label: 'See the orders' }}
      />
    );
  }
  return <OrderScreen key={id} orderId={Number(id)} />;
}
