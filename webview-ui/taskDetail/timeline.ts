import type { TimelineItem } from '../../src/shared/protocol';
import { h, section, time } from '../dom';

/** Milestones, decisions and issues in time order. */
export function timelineSection(items: TimelineItem[]): HTMLElement {
  if (items.length === 0)
    return section('Timeline', h('p', { class: 'muted' }, 'No milestones, decisions or issues logged yet.'));
  return section(`Timeline (${items.length})`, h('ol', { class: 'timeline' }, ...items.map(entry)));
}

function entry(item: TimelineItem): HTMLElement {
  const head = h(
    'div',
    { class: 'entry-head' },
    h('span', { class: `kind ${item.kind}` }, item.kind),
    h('time', { datetime: item.at }, time(item.at)),
  );
  switch (item.kind) {
    case 'milestone':
      return h(
        'li',
        { class: 'entry milestone' },
        head,
        h(
          'p',
          null,
          item.title,
          item.progress !== null && item.progress !== undefined
            ? h('span', { class: 'muted' }, ` (${item.progress}%)`)
            : null,
        ),
      );
    case 'decision':
      return h(
        'li',
        { class: 'entry decision' },
        head,
        h(
          'p',
          { class: 'question' },
          item.category ? h('span', { class: 'chip' }, item.category.replace('_', ' ')) : null,
          ' ',
          item.title,
        ),
        item.options?.length
          ? h(
              'ul',
              { class: 'options' },
              ...item.options.map((o) =>
                h('li', { class: o === item.chosen ? 'chosen' : '' }, o === item.chosen ? '✓ ' : '', o),
              ),
            )
          : null,
        h('p', null, h('strong', null, 'Chosen: '), item.chosen ?? ''),
        item.reasoning ? h('p', null, h('strong', null, 'Why: '), item.reasoning) : null,
        item.tradeOffs ? h('p', null, h('strong', null, 'Trade-offs: '), item.tradeOffs) : null,
      );
    case 'issue':
      return h(
        'li',
        { class: `entry issue${item.requiresHumanReview ? ' review' : ''}` },
        head,
        h(
          'p',
          null,
          item.issueType ? h('span', { class: 'chip' }, item.issueType.replace(/_/g, ' ')) : null,
          ' ',
          item.title,
        ),
        item.resolution ? h('p', null, h('strong', null, 'Resolution: '), item.resolution) : null,
        item.requiresHumanReview ? h('p', { class: 'callout warn' }, 'The agent asks for human review.') : null,
      );
  }
}
