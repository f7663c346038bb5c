import type { StaffSession } from '../../contract/staff.js';

/** What every area's screen is given: the rest of its address (an id, a tab, "new") and who is signed in. */
export interface AreaProps {
  rest: string[];
  session: StaffSession;
}
