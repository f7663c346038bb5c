// Saving a shipping profile or a tax rate (docs/dashboard.md, "Shipping and tax"): the answer is kept as the object's
// data, said aloud and on the form, a new object's screen takes its own address, and its list and trail are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAnnounce } from '../../ui/live-region.js';
import { auditKey } from '../kit/audit-trail.js';
import { navigate } from '../navigation.js';

export function useObjectSave<T extends { id: number }>(options: {
  /** the list's query key; the object's is it and its id */
  listKey: readonly unknown[];
  /** the audit trail's object type */
  auditType: string;
  /** where a new object's screen is: /admin/shipping/profiles */
  basePath: string;
  isNew: boolean;
  send: () => Promise<T>;
  saidOf: (answer: T) => string;
}) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: options.send,
    onMutate: () => setSaved(null),
    onSuccess: async (answer) => {
      client.setQueryData([...options.listKey, answer.id], answer);
      const said = options.saidOf(answer);
      announce(said);
      setSaved(said);
      if (options.isNew) navigate(`${options.basePath}/${answer.id}?created`, { replace: true });
      await Promise.all([
        client.invalidateQueries({ queryKey: options.listKey }),
        client.invalidateQueries({ queryKey: auditKey(options.auditType, answer.id) }),
      ]);
    },
  });
  return { save, saved };
}
