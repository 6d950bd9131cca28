// The signal a relation gives when it would outgrow its bound (evaluation turns it into a located error).

/** Thrown inside a Relation when it would hold more rows than its bound. */
export class RowLimit extends Error {
  constructor() {
    super('row limit');
    this.name = 'RowLimit';
  }
}
