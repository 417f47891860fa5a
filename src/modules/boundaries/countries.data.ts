// ISO 3166-1 codes (public standard) of the countries and territories in world-atlas (Natural Earth), keyed by
// the numeric code world-atlas uses as feature id, with the continent used as a country's subtitle.
// Features without a numeric code (Kosovo, Somaliland, N. Cyprus, …) are keyed by their Natural Earth name.

export interface CountryCodes {
  alpha2: string | null;
  alpha3: string | null;
  continent: string;
}

const CONTINENTS: Record<string, string> = {
  AF: 'Africa',
  AN: 'Antarctica',
  AS: 'Asia',
  EU: 'Europe',
  NA: 'North America',
  OC: 'Oceania',
  SA: 'South America',
};

// numeric alpha2 alpha3 continent
const TABLE = `
004 AF AFG AS|008 AL ALB EU|010 AQ ATA AN|012 DZ DZA AF|016 AS ASM OC|020 AD AND EU|024 AO AGO AF|028 AG ATG NA
031 AZ AZE AS|032 AR ARG SA|036 AU AUS OC|040 AT AUT EU|044 BS BHS NA|048 BH BHR AS|050 BD BGD AS|051 AM ARM AS
052 BB BRB NA|056 BE BEL EU|060 BM BMU NA|064 BT BTN AS|068 BO BOL SA|070 BA BIH EU|072 BW BWA AF|076 BR BRA SA
084 BZ BLZ NA|086 IO IOT AS|090 SB SLB OC|092 VG VGB NA|096 BN BRN AS|100 BG BGR EU|104 MM MMR AS|108 BI BDI AF
112 BY BLR EU|116 KH KHM AS|120 CM CMR AF|124 CA CAN NA|132 CV CPV AF|136 KY CYM NA|140 CF CAF AF|144 LK LKA AS
148 TD TCD AF|152 CL CHL SA|156 CN CHN AS|158 TW TWN AS|170 CO COL SA|174 KM COM AF|178 CG COG AF|180 CD COD AF
184 CK COK OC|188 CR CRI NA|191 HR HRV EU|192 CU CUB NA|196 CY CYP AS|203 CZ CZE EU|204 BJ BEN AF|208 DK DNK EU
212 DM DMA NA|214 DO DOM NA|218 EC ECU SA|222 SV SLV NA|226 GQ GNQ AF|231 ET ETH AF|232 ER ERI AF|233 EE EST EU
234 FO FRO EU|238 FK FLK SA|239 GS SGS AN|242 FJ FJI OC|246 FI FIN EU|248 AX ALA EU|250 FR FRA EU|258 PF PYF OC
260 TF ATF AN|262 DJ DJI AF|266 GA GAB AF|268 GE GEO AS|270 GM GMB AF|275 PS PSE AS|276 DE DEU EU|288 GH GHA AF
296 KI KIR OC|300 GR GRC EU|304 GL GRL NA|308 GD GRD NA|316 GU GUM OC|320 GT GTM NA|324 GN GIN AF|328 GY GUY SA
332 HT HTI NA|334 HM HMD AN|336 VA VAT EU|340 HN HND NA|344 HK HKG AS|348 HU HUN EU|352 IS ISL EU|356 IN IND AS
360 ID IDN AS|364 IR IRN AS|368 IQ IRQ AS|372 IE IRL EU|376 IL ISR AS|380 IT ITA EU|384 CI CIV AF|388 JM JAM NA
392 JP JPN AS|398 KZ KAZ AS|400 JO JOR AS|404 KE KEN AF|408 KP PRK AS|410 KR KOR AS|414 KW KWT AS|417 KG KGZ AS
418 LA LAO AS|422 LB LBN AS|426 LS LSO AF|428 LV LVA EU|430 LR LBR AF|434 LY LBY AF|438 LI LIE EU|440 LT LTU EU
442 LU LUX EU|446 MO MAC AS|450 MG MDG AF|454 MW MWI AF|458 MY MYS AS|462 MV MDV AS|466 ML MLI AF|470 MT MLT EU
478 MR MRT AF|480 MU MUS AF|484 MX MEX NA|492 MC MCO EU|496 MN MNG AS|498 MD MDA EU|499 ME MNE EU|500 MS MSR NA
504 MA MAR AF|508 MZ MOZ AF|512 OM OMN AS|516 NA NAM AF|520 NR NRU OC|524 NP NPL AS|528 NL NLD EU|531 CW CUW NA
533 AW ABW NA|534 SX SXM NA|540 NC NCL OC|548 VU VUT OC|554 NZ NZL OC|558 NI NIC NA|562 NE NER AF|566 NG NGA AF
570 NU NIU OC|574 NF NFK OC|578 NO NOR EU|580 MP MNP OC|583 FM FSM OC|584 MH MHL OC|585 PW PLW OC|586 PK PAK AS
591 PA PAN NA|598 PG PNG OC|600 PY PRY SA|604 PE PER SA|608 PH PHL AS|612 PN PCN OC|616 PL POL EU|620 PT PRT EU
624 GW GNB AF|626 TL TLS AS|630 PR PRI NA|634 QA QAT AS|642 RO ROU EU|643 RU RUS EU|646 RW RWA AF|652 BL BLM NA
654 SH SHN AF|659 KN KNA NA|660 AI AIA NA|662 LC LCA NA|663 MF MAF NA|666 PM SPM NA|670 VC VCT NA|674 SM SMR EU
678 ST STP AF|682 SA SAU AS|686 SN SEN AF|688 RS SRB EU|690 SC SYC AF|694 SL SLE AF|702 SG SGP AS|703 SK SVK EU
704 VN VNM AS|705 SI SVN EU|706 SO SOM AF|710 ZA ZAF AF|716 ZW ZWE AF|724 ES ESP EU|728 SS SSD AF|729 SD SDN AF
732 EH ESH AF|740 SR SUR SA|748 SZ SWZ AF|752 SE SWE EU|756 CH CHE EU|760 SY SYR AS|762 TJ TJK AS|764 TH THA AS
768 TG TGO AF|776 TO TON OC|780 TT TTO NA|784 AE ARE AS|788 TN TUN AF|792 TR TUR AS|795 TM TKM AS|796 TC TCA NA
798 TV TUV OC|800 UG UGA AF|804 UA UKR EU|807 MK MKD EU|818 EG EGY AF|826 GB GBR EU|831 GG GGY EU|832 JE JEY EU
833 IM IMN EU|834 TZ TZA AF|840 US USA NA|850 VI VIR NA|854 BF BFA AF|858 UY URY SA|860 UZ UZB AS|862 VE VEN SA
876 WF WLF OC|882 WS WSM OC|887 YE YEM AS|894 ZM ZMB AF
Kosovo XK XKX EU|Somaliland - - AF|N._Cyprus - - AS|Indian_Ocean_Ter. - - OC|Siachen_Glacier - - AS
`;

const BY_KEY = new Map<string, CountryCodes>(
  TABLE.trim()
    .split(/[|\n]/)
    .map((entry) => entry.trim().split(/\s+/))
    .map(([key = '', alpha2 = '-', alpha3 = '-', continent = '']) => [
      key.replace(/_/g, ' '),
      {
        alpha2: alpha2 === '-' ? null : alpha2,
        alpha3: alpha3 === '-' ? null : alpha3,
        continent: CONTINENTS[continent] ?? continent,
      },
    ]),
);

/** Codes of a world-atlas feature: by numeric id, else by Natural Earth name; null when unknown. */
export function countryCodes(numericId: string | undefined, name: string): CountryCodes | null {
  return (numericId ? BY_KEY.get(numericId) : undefined) ?? BY_KEY.get(name) ?? null;
}

/** Natural Earth's abbreviated display names, spelled out for titles (the short form becomes an alias). */
export const COUNTRY_TITLES: Record<string, string> = {
  'United States of America': 'United States',
  'Marshall Is.': 'Marshall Islands',
  'N. Mariana Is.': 'Northern Mariana Islands',
  'U.S. Virgin Is.': 'United States Virgin Islands',
  'S. Geo. and the Is.': 'South Georgia and the South Sandwich Islands',
  'Br. Indian Ocean Ter.': 'British Indian Ocean Territory',
  'Pitcairn Is.': 'Pitcairn Islands',
  'Falkland Is.': 'Falkland Islands',
  'Cayman Is.': 'Cayman Islands',
  'British Virgin Is.': 'British Virgin Islands',
  'Turks and Caicos Is.': 'Turks and Caicos Islands',
  'S. Sudan': 'South Sudan',
  'Solomon Is.': 'Solomon Islands',
  'St. Vin. and Gren.': 'Saint Vincent and the Grenadines',
  'St. Kitts and Nevis': 'Saint Kitts and Nevis',
  'Cook Is.': 'Cook Islands',
  'W. Sahara': 'Western Sahara',
  Macedonia: 'North Macedonia',
  'St. Pierre and Miquelon': 'Saint Pierre and Miquelon',
  'Wallis and Futuna Is.': 'Wallis and Futuna',
  'St-Martin': 'Saint Martin',
  'St-Barthélemy': 'Saint Barthélemy',
  'Fr. Polynesia': 'French Polynesia',
  'Fr. S. Antarctic Lands': 'French Southern and Antarctic Lands',
  'Eq. Guinea': 'Equatorial Guinea',
  'Dominican Rep.': 'Dominican Republic',
  'Faeroe Is.': 'Faroe Islands',
  'N. Cyprus': 'Northern Cyprus',
  'Dem. Rep. Congo': 'Democratic Republic of the Congo',
  'Central African Rep.': 'Central African Republic',
  'Bosnia and Herz.': 'Bosnia and Herzegovina',
  'Indian Ocean Ter.': 'Australian Indian Ocean Territories',
  'Heard I. and McDonald Is.': 'Heard Island and McDonald Islands',
  'Ashmore and Cartier Is.': 'Ashmore and Cartier Islands',
  'Antigua and Barb.': 'Antigua and Barbuda',
  eSwatini: 'Eswatini',
  Czechia: 'Czechia',
};
