/**
 * Keys that document reading writes into a session's `extractedData` (a map of string to string in
 * the spec). Dates are ISO `YYYY-MM-DD`; booleans are the strings `'true'` / `'false'`; a key is left
 * out when the document does not carry the value or it could not be read.
 */
export const EXTRACTED_DATA_KEYS = {
	firstName: 'given names as printed (MRZ: `<` read as space)',
	lastName: 'surname(s)',
	middleName: 'middle name (AAMVA DAD)',
	nameSuffix: 'name suffix (AAMVA DCU)',
	documentNumber: 'document number (MRZ: including the TD1 long-number continuation)',
	dateOfBirth: 'ISO date',
	expiryDate: 'ISO date',
	issueDate: 'ISO date (AAMVA DBD)',
	nationality: 'ICAO 3-letter code (Germany `D` reported as `DEU`)',
	issuingCountry: 'ICAO 3-letter code (MRZ issuing state; AAMVA DCG)',
	sex: '`male`, `female` or `unspecified`',
	documentType: 'one of the spec MRTD_TYPE_* values',
	documentCode: 'MRZ document code (`P`, `ID`, `C1`, `V` …) or AAMVA subfile type (`DL`, `ID`)',
	mrzFormat: '`TD1`, `TD2`, `TD3`, `MRV-A`, `MRV-B` (or the `mrz` package name of a national layout)',
	personalNumber: 'TD3 personal number / optional data of line 2',
	optionalData: 'TD1/TD2/MRV optional data, fillers removed',
	checkDigitsValid: "`'true'` when every MRZ check digit matches",
	expired: "`'true'` when the expiry date is before the day of reading",
	addressStreet: 'AAMVA DAG (+ DAH)',
	addressCity: 'AAMVA DAI',
	addressState: 'AAMVA DAJ',
	addressPostalCode: 'AAMVA DAK, trailing spaces removed',
	addressCountry: 'AAMVA DCG',
	issuerIdentificationNumber: 'AAMVA IIN of the issuing jurisdiction',
	aamvaVersion: 'AAMVA standard version number of the barcode',
	documentDiscriminator: 'AAMVA DCF',
	vehicleClass: 'AAMVA DCA'
} as const;

export type ExtractedDataKey = keyof typeof EXTRACTED_DATA_KEYS;
export type ExtractedData = Partial<Record<ExtractedDataKey, string>>;
