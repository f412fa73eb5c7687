import { titleKey } from '../../src/domain/titles';
import { ChartMatcher } from '../../src/modules/catalogue/catalogue';
import { Difficulty, PlayStyle } from '../../src/domain/constants';

describe('title matching normalises both sides the same way', () => {
  it('trailing / doubled spaces and full-width forms meet', () => {
    expect(titleKey('Rave*it!! Rave*it!! ')).toBe('Rave*it!! Rave*it!!');
    expect(titleKey('  A \u3000 B  ')).toBe('A B'); // U+3000 ideographic space → NFKC space, collapsed
    expect(titleKey('ＡＢＣ')).toBe('ABC'); // full-width Latin → NFKC
  });

  it('the matcher finds a catalogue title written with a trailing space from either spelling', () => {
    const chart = { title: 'Rave*it!! Rave*it!! ', playStyle: PlayStyle.SP, difficulty: Difficulty.ANOTHER };
    const m = new ChartMatcher([chart]);
    expect(m.find('Rave*it!! Rave*it!! ', PlayStyle.SP, Difficulty.ANOTHER)).toBe(chart);
    expect(m.find('Rave*it!! Rave*it!!', PlayStyle.SP, Difficulty.ANOTHER)).toBe(chart);
    expect(m.find('Rave*it!! Rave*it!!', PlayStyle.SP, Difficulty.HYPER)).toBeUndefined();
  });
});
