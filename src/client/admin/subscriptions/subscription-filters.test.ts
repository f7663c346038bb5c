import { describe, expect, it } from 'vitest';
import { actionsFor, everyInterval, filtersOf, queryOf, upcomingCharge } from './subscription-filters.js';

describe('filtersOf and queryOf', () => {
  it('reads the filters from the address and writes them back', () => {
    const filters = filtersOf('?status=paused&test=true&q=%20Ada%20');
    expect(filters).toEqual({ status: 'paused', test: 'true', q: 'Ada' });
    expect(queryOf(filters)).toBe('?status=paused&test=true&q=Ada');
  });

  it('leaves out values the list does not take', () => {
    expect(filtersOf('?status=canceled&test=yes')).toEqual({ status: '', test: '', q: '' });
    expect(filtersOf('?status=toString')).toMatchObject({ status: '' });
  });

  it('writes no query when no filter is set', () => {
    expect(queryOf({ status: '', test: '', q: '  ' })).toBe('');
  });
});

describe('everyInterval', () => {
  it('says the interval as a person would', () => {
    expect(everyInterval(1)).toBe('every day');
    expect(everyInterval(30)).toBe('every 30 days');
  });
});

describe('actionsFor', () => {
  it('lets an active subscription be skipped, paused or cancelled', () => {
    expect(actionsFor({ status: 'active', cancel_at: null })).toEqual(['skip', 'pause', 'cancel']);
  });

  it('lets a paused one be resumed or cancelled', () => {
    expect(actionsFor({ status: 'paused', cancel_at: null })).toEqual(['resume', 'cancel']);
  });

  it('lets a past-due one be paused, resumed or cancelled, not skipped', () => {
    expect(actionsFor({ status: 'past_due', cancel_at: null })).toEqual(['pause', 'resume', 'cancel']);
  });

  it('lets one whose cancel is scheduled be resumed (kept) or cancelled now', () => {
    expect(actionsFor({ status: 'active', cancel_at: '2026-12-01T00:00:00Z' })).toEqual(['resume', 'cancel']);
  });

  it('allows nothing once cancelled', () => {
    expect(actionsFor({ status: 'cancelled', cancel_at: null })).toEqual([]);
  });
});

describe('upcomingCharge', () => {
  const at = '2026-12-01T00:00:00.000Z';
  it('is the next charge of an active or past-due subscription', () => {
    expect(upcomingCharge({ status: 'active', cancel_at: null, next_charge_at: at })).toBe(at);
    expect(upcomingCharge({ status: 'past_due', cancel_at: null, next_charge_at: at })).toBe(at);
  });

  it('is none while paused, cancelled or ending', () => {
    expect(upcomingCharge({ status: 'paused', cancel_at: null, next_charge_at: at })).toBeNull();
    expect(upcomingCharge({ status: 'cancelled', cancel_at: null, next_charge_at: at })).toBeNull();
    expect(upcomingCharge({ status: 'active', cancel_at: at, next_charge_at: at })).toBeNull();
  });
});
