/**
 * Pure parsers of the score exports players have (docs/domain/imports.md): the official
 * e-amusement CSV (current layout with BEGINNER…LEGGENDARIA, older layout without), the Reflux
 * TSV, the daken counter CSV and the result techo CSV, each in the header variants real exports
 * have. UTF-8 with or without BOM, CRLF, LF or CR. Fields are read with csv-parse (text.ts).
 *
 * Every played chart of every difficulty and level is emitted, with the level and play style the
 * export names. Imports never drop good data: a difficulty block of a chart that does not exist
 * (level 0 or empty) is ignored whatever its other cells hold; a bad value in one chart's cells
 * (unknown clear type, EX score over the maximum, a non-number) drops that chart alone with an
 * issue naming line, column and value; a broken line drops that line alone. Only a file whose
 * header is not one of the formats is refused (CsvFormatError).
 *
 * Linear time: every column is looked up once per file, before the row loop.
 */
import { parseBatchManual } from './batch-manual';
import { detectFormat } from './detect';
import { type ParseOptions } from './collector';
import { parseDakenCounterCsv, parseResultTechoCsv } from './counters';
import { parseOfficialCsv } from './official';
import { parseRefluxTsv } from './reflux';
import { CsvFormatError, type CsvFormat, type ParseResult } from './types';

// One file per format (official.ts, reflux.ts, counters.ts), the shared cell rules in collector.ts.
export { MAX_ISSUES, type ParseOptions } from './collector';
export { parseDakenCounterCsv, parseResultTechoCsv } from './counters';
export { parseOfficialCsv } from './official';
export { parseRefluxTsv } from './reflux';

/** Detects the format and parses. Throws CsvFormatError for an unknown or structurally broken file. */
export function parseScoreExport(
  text: string,
  opts: ParseOptions = {},
  format: CsvFormat | undefined = detectFormat(text),
): ParseResult {
  switch (format) {
    case 'official':
      return parseOfficialCsv(text, opts);
    case 'reflux':
      return parseRefluxTsv(text, opts);
    case 'daken_counter':
      return parseDakenCounterCsv(text, opts);
    case 'result_techo':
      return parseResultTechoCsv(text, opts);
    case 'batch_manual':
      return parseBatchManual(text, opts);
    default:
      throw new CsvFormatError(
        'Unsupported format: expected the official score CSV, a Reflux TSV, a daken counter CSV, a result techo CSV ' +
          'or a Tachi BATCH-MANUAL JSON document',
      );
  }
}
