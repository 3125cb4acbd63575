import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/core/errors.js';

describe('InvalidParamsError', () => {
  it('says a parameter that was not given is missing, with the form it expects', () => {
    const error = new InvalidParamsError(
      'table',
      undefined,
      'one of plays, header (required with format=csv)',
      'mens_summary',
    );
    expect(error.message).toBe(
      'mens_summary: parameter "table" is missing; expected one of plays, header (required with format=csv)',
    );
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.value).toBeUndefined();
  });

  it('shows a value that was given, quoted when it is a string', () => {
    expect(new InvalidParamsError('dates', '2024-12-01', 'a date YYYYMMDD', 'mens_scoreboard').message).toBe(
      'mens_scoreboard: parameter "dates" has invalid value "2024-12-01"; expected a date YYYYMMDD',
    );
    expect(new InvalidParamsError('limit', 0, 'an integer from 1 to 1000').message).toBe(
      'parameter "limit" has invalid value 0; expected an integer from 1 to 1000',
    );
  });
});
