// The dashboard's Orders (docs/dashboard.md, "Orders"): /admin/orders (the list, its search and filters in the
// address's query) and /admin/orders/<id> (one order, its story and its refunds).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';
import { AdminLink } from '../kit/admin-link.js';
import { OrderListScreen } from './order-list-screen.js';
import { OrderScreen } from './order-screen.js';
import './orders.css';

export default function OrdersArea({ rest }: AreaProps) {
  const [id, ...more] = rest;
  if (id === undefined) return <OrderListScreen />;
  if (!/^\d{1,15}$/.test(id) || more.length > 0) {
    return (
      <>
        <ScreenHeading>No such order</ScreenHeading>
        <p>
          This address names no order. <AdminLink to="/admin/orders">See the orders</AdminLink>.
        </p>
      </>
    );
  }
  return <OrderScreen key={id} orderId={Number(id)} />;
}
