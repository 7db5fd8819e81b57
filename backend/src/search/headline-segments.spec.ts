import { headlineSegments, MATCH_START as S, MATCH_STOP as E } from './headline-segments';

describe('headlineSegments', () => {
  it('splits a marked headline into plain and matching runs', () => {
    expect(headlineSegments(`the ${S}quick${E} brown ${S}fox${E}`)).toEqual([
      { text: 'the ', match: false },
      { text: 'quick', match: true },
      { text: ' brown ', match: false },
      { text: 'fox', match: true },
    ]);
  });

  it('joins adjacent matches and keeps markup-looking text as text', () => {
    expect(headlineSegments(`${S}<b>${E}${S}x${E} <script>`)).toEqual([
      { text: '<b>x', match: true },
      { text: ' <script>', match: false },
    ]);
  });

  it('gives one plain run when nothing is marked, and nothing for an empty headline', () => {
    expect(headlineSegments('no match here')).toEqual([{ text: 'no match here', match: false }]);
    expect(headlineSegments('')).toEqual([]);
    expect(headlineSegments(`${S}unterminated`)).toEqual([{ text: 'unterminated', match: false }]);
  });
});
