/**
 * The ticket categories and promo codes of an event, on its edit page (docs/api.md#tickets):
 * a list of each with add, edit and delete. Amounts are typed in the currency's main unit and
 * percentages as percent, and sent as integer cents and basis points (client/admin/forms.ts);
 * sale and validity windows are typed on the event's own clock. A refusal from the server is
 * shown at the field it names.
 */
import { createResource, createSignal, For, Show, type JSX, type Resource } from 'solid-js';
import { MAX_TICKETS_PER_LINE, TAX_MODES, type TaxMode, type TicketCategoryDto } from '../../../shared/tickets';
import { FULL_BP, VOUCHER_KINDS, type VoucherKind } from '../../../shared/pricing';
import type { VoucherDto } from '../../../shared/vouchers';
import { intlLocale, t } from '../../i18n/i18n';
import { ApiError } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { formatMoney } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import {
  createTicketCategory,
  createVoucher,
  deleteTicketCategory,
  deleteVoucher,
  listEventCategories,
  listVouchers,
  updateTicketCategory,
  updateVoucher,
  type EventDto,
} from '../data';
import { adminErrorMessage } from '../errors';
import { basisPointsToText, centsToText, createSaveAction, textToBasisPoints, textToCents, textToLimit, utcToZoneInput, zoneInputToUtc } from '../forms';
import { AsyncView, ready } from './async-view';
import { CheckboxField, SelectField, TextArea, TextField } from './fields';
import { createConfirm } from './confirm';
import { DataTable } from './data-table';

type Errors<F extends string> = Partial<Record<F, string>>;

/** The field a server refusal names (`category.priceCents`, `patch.saleEndsUtc`, `categoryIds.0`), if it is one of the form's. */
function fieldOf<F extends string>(path: string, fields: readonly F[]): F | undefined {
  return path.split('.').find((part): part is F => (fields as readonly string[]).includes(part));
}

/** A refusal spread over the form's fields in plain words (`wordsFor`); what names no field stays the form's message. */
function serverErrors<F extends string>(err: unknown, fields: readonly F[], wordsFor: (field: F) => string): { fields: Errors<F>; general: string | null } {
  const found: Errors<F> = {};
  const params = err instanceof ApiError ? err.data?.params : undefined;
  if (params && typeof params === 'object') {
    for (const path of Object.keys(params)) {
      const field = fieldOf(path, fields);
      if (field) found[field] ??= wordsFor(field);
    }
  }
  return { fields: found, general: Object.keys(found).length > 0 ? null : adminErrorMessage(err) };
}

/** A decimal the reader's way, for the examples in error messages ("18.00" / "18,00"). */
const decimal = (value: number) =>
  new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(value);
const percentOf = (bp: number) => new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 2 }).format(bp / FULL_BP);
const count = (n: number) => new Intl.NumberFormat(intlLocale()).format(n);

/** Both sections of an existing event: its categories first (the vouchers name them), then its codes. */
export function TicketEditors(props: { event: EventDto }): JSX.Element {
  const [categories, { refetch: refetchCategories }] = createResource(() => props.event.id, listEventCategories);
  const [vouchers, { refetch: refetchVouchers }] = createResource(() => props.event.id, listVouchers);
  const confirm = createConfirm();
  return (
    <>
      <CategoriesSection event={props.event} categories={categories} refetch={() => void refetchCategories()} confirm={confirm} />
      <VouchersSection event={props.event} vouchers={vouchers} categories={ready(categories) ?? []} refetch={() => void refetchVouchers()} confirm={confirm} />
      {confirm.view()}
    </>
  );
}

type Confirm = ReturnType<typeof createConfirm>;

// ---- ticket categories -------------------------------------------------------------------

const CATEGORY_FIELDS = [
  'name',
  'description',
  'priceCents',
  'taxRateBp',
  'taxMode',
  'quota',
  'minPerOrder',
  'maxPerOrder',
  'saleStartsUtc',
  'saleEndsUtc',
] as const;
type CategoryField = (typeof CATEGORY_FIELDS)[number];

function categoryFieldWords(field: CategoryField): string {
  switch (field) {
    case 'name':
      return t('admin.tickets.error.name', { max: 190 });
    case 'description':
      return t('admin.tickets.error.description', { max: 2000 });
    case 'priceCents':
      return t('admin.tickets.error.amount', { example: decimal(18) });
    case 'taxRateBp':
      return t('admin.tickets.error.percent', { example: decimal(19) });
    case 'taxMode':
      return t('admin.common.invalid');
    case 'quota':
      return t('admin.tickets.error.quota');
    case 'minPerOrder':
      return t('admin.tickets.error.minPerOrder', { max: MAX_TICKETS_PER_LINE });
    case 'maxPerOrder':
      return t('admin.tickets.error.maxPerOrder', { max: MAX_TICKETS_PER_LINE });
    case 'saleStartsUtc':
      return t('admin.tickets.error.date');
    case 'saleEndsUtc':
      return t('admin.tickets.error.windowEnd');
  }
}

function taxModeLabel(mode: TaxMode): string {
  return mode === 'included' ? t('admin.tickets.taxIncluded') : t('admin.tickets.taxAdded');
}

function CategoriesSection(props: { event: EventDto; categories: Resource<TicketCategoryDto[]>; refetch: () => void; confirm: Confirm }): JSX.Element {
  /** The category in the form: null = none open, 'new' = adding one. */
  const [editing, setEditing] = createSignal<TicketCategoryDto | 'new' | null>(null);
  const [announcement, setAnnouncement] = createSignal('');
  const currency = () => props.event.currency;

  const close = (message?: string) => {
    setEditing(null);
    if (message) setAnnouncement(message);
    queueMicrotask(() => document.getElementById('tickets-add')?.focus());
  };
  const askDelete = (c: TicketCategoryDto) =>
    props.confirm.ask({
      title: t('admin.tickets.deleteTitle', { name: c.name }),
      detail: t('admin.tickets.deleteDetail'),
      confirmLabel: t('admin.tickets.deleteConfirm'),
      action: () => deleteTicketCategory(c.id),
      describeError: adminErrorMessage,
      onDone: () => {
        props.refetch();
        close(t('admin.tickets.deleted', { name: c.name }));
      },
    });

  return (
    <section class="form form-wide ticket-section">
      <h2 id="tickets-heading">{t('admin.tickets.heading')}</h2>
      <p class="field-hint">{t('admin.tickets.intro')}</p>
      <AsyncView
        resource={props.categories}
        retry={props.refetch}
        what={t('admin.tickets.what')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="muted">{t('admin.tickets.none')}</p>}
      >
        {(list) => (
          <DataTable
            labelledBy="tickets-heading"
            columns={[t('admin.tickets.col.name'), t('admin.tickets.col.price'), t('admin.tickets.col.sold'), t('admin.tickets.col.actions')]}
            rows={list()}
          >
            {(c) => (
              <tr data-category-id={c.id}>
                <td>
                  {c.name}
                  <Show when={c.hidden}>
                    {' '}
                    <span class="state state-draft">{t('admin.tickets.hiddenBadge')}</span>
                  </Show>
                </td>
                <td>
                  {formatMoney(c.priceCents, currency())}
                  <Show when={c.taxRateBp > 0}>
                    <div class="muted">
                      {c.taxMode === 'included'
                        ? t('admin.tickets.taxIncludedShort', { rate: percentOf(c.taxRateBp) })
                        : t('admin.tickets.taxAddedShort', { rate: percentOf(c.taxRateBp) })}
                    </div>
                  </Show>
                </td>
                <td>
                  {c.quota === null
                    ? t('admin.tickets.soldNoQuota', { sold: count(c.soldCount) })
                    : t('admin.tickets.soldOfQuota', { sold: count(c.soldCount), quota: count(c.quota) })}
                </td>
                <td>
                  <RowActions
                    editId={`category-${c.id}-edit`}
                    editLabel={t('admin.tickets.editLabel', { name: c.name })}
                    deleteLabel={t('admin.tickets.deleteLabel', { name: c.name })}
                    onEdit={() => setEditing(c)}
                    onDelete={() => askDelete(c)}
                  />
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
      <Show
        when={editing()}
        keyed
        fallback={
          <div class="button-row">
            <button type="button" id="tickets-add" class="button button-quiet" onClick={() => setEditing('new')}>
              {t('admin.tickets.add')}
            </button>
          </div>
        }
      >
        {(current) => (
          <CategoryForm
            event={props.event}
            category={current === 'new' ? null : current}
            nextPosition={(ready(props.categories) ?? []).reduce((max, c) => Math.max(max, c.position + 1), 0)}
            onSaved={(saved) => {
              props.refetch();
              close(t('admin.tickets.saved', { name: saved.name }));
            }}
            onCancel={() => close()}
          />
        )}
      </Show>
      <p class="visually-hidden" role="status">
        {announcement()}
      </p>
    </section>
  );
}

function CategoryForm(props: {
  event: EventDto;
  category: TicketCategoryDto | null;
  nextPosition: number;
  onSaved: (saved: TicketCategoryDto) => void;
  onCancel: () => void;
}): JSX.Element {
  const c = props.category;
  const zone = props.event.timezone;
  const [name, setName] = createSignal(c?.name ?? '');
  const [description, setDescription] = createSignal(c?.description ?? '');
  const [price, setPrice] = createSignal(c ? centsToText(c.priceCents) : '');
  const [taxRate, setTaxRate] = createSignal(c ? basisPointsToText(c.taxRateBp) : '0');
  const [taxMode, setTaxMode] = createSignal<TaxMode>(c?.taxMode ?? 'included');
  const [quota, setQuota] = createSignal(c?.quota == null ? '' : String(c.quota));
  const [minPerOrder, setMinPerOrder] = createSignal(String(c?.minPerOrder ?? 1));
  const [maxPerOrder, setMaxPerOrder] = createSignal(c?.maxPerOrder == null ? '' : String(c.maxPerOrder));
  const [saleStarts, setSaleStarts] = createSignal(utcToZoneInput(c?.saleStartsUtc, zone));
  const [saleEnds, setSaleEnds] = createSignal(utcToZoneInput(c?.saleEndsUtc, zone));
  const [hidden, setHidden] = createSignal(c?.hidden ?? false);
  const [errors, setErrors] = createSignal<Errors<CategoryField>>({});
  const saving = createSaveAction();
  const id = (part: string) => `category-form-${part}`;

  /** The body to send, or the fields that cannot be read. */
  const build = () => {
    const bad: Errors<CategoryField> = {};
    const priceCents = textToCents(price());
    if (priceCents === null) bad.priceCents = categoryFieldWords('priceCents');
    const taxRateBp = textToBasisPoints(taxRate() || '0');
    if (taxRateBp === null || taxRateBp > FULL_BP) bad.taxRateBp = categoryFieldWords('taxRateBp');
    const quotaValue = textToLimit(quota());
    if (Number.isNaN(quotaValue)) bad.quota = categoryFieldWords('quota');
    const min = textToLimit(minPerOrder());
    if (min === null || Number.isNaN(min) || min < 1) bad.minPerOrder = categoryFieldWords('minPerOrder');
    const max = textToLimit(maxPerOrder());
    if (Number.isNaN(max) || max === 0) bad.maxPerOrder = categoryFieldWords('maxPerOrder');
    const saleStartsUtc = zoneInputToUtc(saleStarts(), zone);
    if (saleStarts().trim() && !saleStartsUtc) bad.saleStartsUtc = categoryFieldWords('saleStartsUtc');
    const saleEndsUtc = zoneInputToUtc(saleEnds(), zone);
    if (saleEnds().trim() && !saleEndsUtc) bad.saleEndsUtc = categoryFieldWords('saleEndsUtc');
    if (Object.keys(bad).length > 0) return { bad };
    return {
      body: {
        name: name().trim(),
        description: description(),
        priceCents: priceCents!,
        taxRateBp: taxRateBp!,
        taxMode: taxMode(),
        quota: quotaValue,
        minPerOrder: min!,
        maxPerOrder: max,
        saleStartsUtc,
        saleEndsUtc,
        hidden: hidden(),
      },
    };
  };

  const save = async () => {
    if (saving.busy()) return;
    saving.reset();
    const built = build();
    if (built.bad) {
      setErrors(built.bad);
      focusFirstError(built.bad, CATEGORY_FIELDS, id);
      return;
    }
    setErrors({});
    await saving.run(
      async () => {
        const saved = c
          ? await updateTicketCategory(c.id, built.body)
          : await createTicketCategory(props.event.id, { ...built.body, position: props.nextPosition });
        props.onSaved(saved);
      },
      (err) => {
        const found = serverErrors(err, CATEGORY_FIELDS, categoryFieldWords);
        setErrors(found.fields);
        focusFirstError(found.fields, CATEGORY_FIELDS, id);
        return found.general;
      },
    );
  };

  queueMicrotask(() => document.getElementById(id('name'))?.focus());

  return (
    <form class="form form-wide" onSubmit={submitWith(save)} aria-labelledby={id('legend')} novalidate>
      <h3 id={id('legend')}>{c ? t('admin.tickets.editTitle', { name: c.name }) : t('admin.tickets.addTitle')}</h3>
      <TextField id={id('name')} label={t('admin.tickets.field.name')} value={name()} onInput={setName} maxLength={190} required error={errors().name} />
      <TextArea
        id={id('description')}
        label={t('admin.tickets.field.description')}
        value={description()}
        onInput={setDescription}
        error={errors().description}
      />
      <div class="field-row">
        <TextField
          id={id('priceCents')}
          label={t('admin.tickets.field.price', { currency: props.event.currency })}
          inputMode="decimal"
          value={price()}
          onInput={setPrice}
          hint={t('admin.tickets.field.priceHint', { example: decimal(18) })}
          error={errors().priceCents}
        />
        <TextField
          id={id('taxRateBp')}
          label={t('admin.tickets.field.taxRate')}
          inputMode="decimal"
          value={taxRate()}
          onInput={setTaxRate}
          error={errors().taxRateBp}
        />
        <SelectField
          id={id('taxMode')}
          label={t('admin.tickets.field.taxMode')}
          value={taxMode()}
          options={TAX_MODES.map((value) => ({ value, label: taxModeLabel(value) }))}
          onChange={setTaxMode}
          error={errors().taxMode}
        />
      </div>
      <div class="field-row">
        <TextField
          id={id('quota')}
          label={t('admin.tickets.field.quota')}
          inputMode="numeric"
          value={quota()}
          onInput={setQuota}
          hint={t('admin.tickets.field.quotaHint')}
          error={errors().quota}
        />
        <TextField
          id={id('minPerOrder')}
          label={t('admin.tickets.field.minPerOrder')}
          inputMode="numeric"
          value={minPerOrder()}
          onInput={setMinPerOrder}
          error={errors().minPerOrder}
        />
        <TextField
          id={id('maxPerOrder')}
          label={t('admin.tickets.field.maxPerOrder')}
          inputMode="numeric"
          value={maxPerOrder()}
          onInput={setMaxPerOrder}
          hint={t('admin.tickets.field.maxPerOrderHint')}
          error={errors().maxPerOrder}
        />
      </div>
      <div class="field-row">
        <TextField
          id={id('saleStartsUtc')}
          label={t('admin.tickets.field.saleStarts')}
          type="datetime-local"
          value={saleStarts()}
          onInput={setSaleStarts}
          hint={t('admin.tickets.zoneHint', { zone })}
          error={errors().saleStartsUtc}
        />
        <TextField
          id={id('saleEndsUtc')}
          label={t('admin.tickets.field.saleEnds')}
          type="datetime-local"
          value={saleEnds()}
          onInput={setSaleEnds}
          hint={t('admin.tickets.zoneHint', { zone })}
          error={errors().saleEndsUtc}
        />
      </div>
      <CheckboxField
        id={id('hidden')}
        label={t('admin.tickets.field.hidden')}
        checked={hidden()}
        onChange={setHidden}
        hint={t('admin.tickets.field.hiddenHint')}
      />
      <FormError message={saving.error()} />
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={saving.busy()}>
          {saving.busy() ? t('admin.common.saving') : c ? t('admin.tickets.saveChanges') : t('admin.tickets.create')}
        </button>
        <button type="button" class="button button-quiet" onClick={() => props.onCancel()}>
          {t('admin.tickets.cancel')}
        </button>
      </div>
    </form>
  );
}

/** After a refusal, the first field it names takes the focus (its message is tied to it by aria-describedby). */
function focusFirstError<F extends string>(errors: Errors<F>, order: readonly F[], id: (part: string) => string): void {
  const first = order.find((field) => errors[field]);
  if (first) queueMicrotask(() => document.getElementById(id(first))?.focus());
}

// ---- vouchers ----------------------------------------------------------------------------

const VOUCHER_FIELDS = ['code', 'kind', 'value', 'categoryIds', 'maxUses', 'maxUsesPerEmail', 'validFromUtc', 'validUntilUtc'] as const;
type VoucherField = (typeof VOUCHER_FIELDS)[number];

function voucherFieldWords(field: VoucherField, kind: VoucherKind): string {
  switch (field) {
    case 'code':
      return t('admin.vouchers.error.code', { example: 'SPRING-20' });
    case 'kind':
      return t('admin.common.invalid');
    case 'value':
      return kind === 'percent' ? t('admin.vouchers.error.percent', { example: decimal(20) }) : t('admin.vouchers.error.amount', { example: decimal(5) });
    case 'categoryIds':
      return t('admin.vouchers.error.categories');
    case 'maxUses':
    case 'maxUsesPerEmail':
      return t('admin.vouchers.error.limit');
    case 'validFromUtc':
      return t('admin.tickets.error.date');
    case 'validUntilUtc':
      return t('admin.tickets.error.windowEnd');
  }
}

function kindLabel(kind: VoucherKind): string {
  switch (kind) {
    case 'percent':
      return t('admin.vouchers.kind.percent');
    case 'fixed':
      return t('admin.vouchers.kind.fixed');
    case 'set_price':
      return t('admin.vouchers.kind.setPrice');
  }
}

/** "20 % off", "€5.00 off each ticket", "€10.00 per ticket". */
function termsText(v: VoucherDto, currency: string): string {
  if (v.kind === 'percent') return t('admin.vouchers.percentOff', { percent: percentOf(v.value) });
  if (v.kind === 'fixed') return t('admin.vouchers.amountOff', { amount: formatMoney(v.value, currency) });
  return t('admin.vouchers.setPrice', { amount: formatMoney(v.value, currency) });
}

function appliesText(v: VoucherDto, categories: readonly TicketCategoryDto[]): string {
  if (v.categoryIds === null) return t('admin.vouchers.allCategories');
  const names = v.categoryIds.map((id) => categories.find((c) => c.id === id)?.name ?? `#${id}`);
  return new Intl.ListFormat(intlLocale(), { type: 'conjunction' }).format(names);
}

function VouchersSection(props: {
  event: EventDto;
  vouchers: Resource<VoucherDto[]>;
  categories: readonly TicketCategoryDto[];
  refetch: () => void;
  confirm: Confirm;
}): JSX.Element {
  const [editing, setEditing] = createSignal<VoucherDto | 'new' | null>(null);
  const [announcement, setAnnouncement] = createSignal('');
  const close = (message?: string) => {
    setEditing(null);
    if (message) setAnnouncement(message);
    queueMicrotask(() => document.getElementById('vouchers-add')?.focus());
  };
  const askDelete = (v: VoucherDto) =>
    props.confirm.ask({
      title: t('admin.vouchers.deleteTitle', { code: v.code }),
      detail: t('admin.vouchers.deleteDetail'),
      confirmLabel: t('admin.vouchers.deleteConfirm'),
      action: () => deleteVoucher(v.id),
      describeError: adminErrorMessage,
      onDone: () => {
        props.refetch();
        close(t('admin.vouchers.deleted', { code: v.code }));
      },
    });

  return (
    <section class="form form-wide ticket-section">
      <h2 id="vouchers-heading">{t('admin.vouchers.heading')}</h2>
      <p class="field-hint">{t('admin.vouchers.intro')}</p>
      <AsyncView
        resource={props.vouchers}
        retry={props.refetch}
        what={t('admin.vouchers.what')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="muted">{t('admin.vouchers.none')}</p>}
      >
        {(list) => (
          <DataTable
            labelledBy="vouchers-heading"
            columns={[
              t('admin.vouchers.col.code'),
              t('admin.vouchers.col.terms'),
              t('admin.vouchers.col.applies'),
              t('admin.vouchers.col.used'),
              t('admin.tickets.col.actions'),
            ]}
            rows={list()}
          >
            {(v) => (
              <tr data-voucher-id={v.id}>
                <td>
                  <code>{v.code}</code>
                </td>
                <td>{termsText(v, props.event.currency)}</td>
                <td>
                  {appliesText(v, props.categories)}
                  <Show when={v.unlocksHidden}>
                    <div class="muted">{t('admin.vouchers.unlocksBadge')}</div>
                  </Show>
                </td>
                <td>
                  {v.maxUses === null
                    ? t('admin.vouchers.usedNoLimit', { used: count(v.usedCount) })
                    : t('admin.vouchers.usedOfLimit', { used: count(v.usedCount), max: count(v.maxUses) })}
                </td>
                <td>
                  <RowActions
                    editId={`voucher-${v.id}-edit`}
                    editLabel={t('admin.vouchers.editLabel', { code: v.code })}
                    deleteLabel={t('admin.vouchers.deleteLabel', { code: v.code })}
                    onEdit={() => setEditing(v)}
                    onDelete={() => askDelete(v)}
                  />
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
      <Show
        when={editing()}
        keyed
        fallback={
          <div class="button-row">
            <button type="button" id="vouchers-add" class="button button-quiet" onClick={() => setEditing('new')}>
              {t('admin.vouchers.add')}
            </button>
          </div>
        }
      >
        {(current) => (
          <VoucherForm
            event={props.event}
            voucher={current === 'new' ? null : current}
            categories={props.categories}
            onSaved={(saved) => {
              props.refetch();
              close(t('admin.vouchers.saved', { code: saved.code }));
            }}
            onCancel={() => close()}
          />
        )}
      </Show>
      <p class="visually-hidden" role="status">
        {announcement()}
      </p>
    </section>
  );
}

function VoucherForm(props: {
  event: EventDto;
  voucher: VoucherDto | null;
  categories: readonly TicketCategoryDto[];
  onSaved: (saved: VoucherDto) => void;
  onCancel: () => void;
}): JSX.Element {
  const v = props.voucher;
  const zone = props.event.timezone;
  const [code, setCode] = createSignal(v?.code ?? '');
  const [kind, setKind] = createSignal<VoucherKind>(v?.kind ?? 'percent');
  const [value, setValue] = createSignal(v ? (v.kind === 'percent' ? basisPointsToText(v.value) : centsToText(v.value)) : '');
  const [categoryIds, setCategoryIds] = createSignal<number[]>(v?.categoryIds ?? []);
  const [maxUses, setMaxUses] = createSignal(v?.maxUses == null ? '' : String(v.maxUses));
  const [maxUsesPerEmail, setMaxUsesPerEmail] = createSignal(v?.maxUsesPerEmail == null ? '' : String(v.maxUsesPerEmail));
  const [validFrom, setValidFrom] = createSignal(utcToZoneInput(v?.validFromUtc, zone));
  const [validUntil, setValidUntil] = createSignal(utcToZoneInput(v?.validUntilUtc, zone));
  const [unlocksHidden, setUnlocksHidden] = createSignal(v?.unlocksHidden ?? false);
  const [errors, setErrors] = createSignal<Errors<VoucherField>>({});
  const saving = createSaveAction();
  const id = (part: string) => `voucher-form-${part}`;
  const words = (field: VoucherField) => voucherFieldWords(field, kind());

  const toggleCategory = (categoryId: number, on: boolean) =>
    setCategoryIds((ids) => (on ? [...ids.filter((x) => x !== categoryId), categoryId] : ids.filter((x) => x !== categoryId)));

  const build = () => {
    const bad: Errors<VoucherField> = {};
    const amount = kind() === 'percent' ? textToBasisPoints(value()) : value().trim() === '' ? null : textToCents(value());
    if (amount === null || (kind() === 'percent' && (amount === 0 || amount > FULL_BP)) || (kind() === 'fixed' && amount === 0)) bad.value = words('value');
    const uses = textToLimit(maxUses());
    if (Number.isNaN(uses) || uses === 0) bad.maxUses = words('maxUses');
    const perEmail = textToLimit(maxUsesPerEmail());
    if (Number.isNaN(perEmail) || perEmail === 0) bad.maxUsesPerEmail = words('maxUsesPerEmail');
    const validFromUtc = zoneInputToUtc(validFrom(), zone);
    if (validFrom().trim() && !validFromUtc) bad.validFromUtc = words('validFromUtc');
    const validUntilUtc = zoneInputToUtc(validUntil(), zone);
    if (validUntil().trim() && !validUntilUtc) bad.validUntilUtc = words('validUntilUtc');
    if (Object.keys(bad).length > 0) return { bad };
    const ids = categoryIds().filter((categoryId) => props.categories.some((c) => c.id === categoryId));
    return {
      body: {
        code: code().trim(),
        kind: kind(),
        value: amount!,
        categoryIds: ids.length > 0 ? ids : null,
        maxUses: uses,
        maxUsesPerEmail: perEmail,
        validFromUtc,
        validUntilUtc,
        unlocksHidden: unlocksHidden(),
      },
    };
  };

  const save = async () => {
    if (saving.busy()) return;
    saving.reset();
    const built = build();
    if (built.bad) {
      setErrors(built.bad);
      focusFirstError(built.bad, VOUCHER_FIELDS, id);
      return;
    }
    setErrors({});
    await saving.run(
      async () => {
        props.onSaved(v ? await updateVoucher(v.id, built.body) : await createVoucher(props.event.id, built.body));
      },
      (err) => {
        const found = serverErrors(err, VOUCHER_FIELDS, words);
        if (err instanceof ApiError && err.code === 'svc_voucher_code_taken') found.fields.code = t('admin.vouchers.error.codeTaken');
        setErrors(found.fields);
        focusFirstError(found.fields, VOUCHER_FIELDS, id);
        return found.general;
      },
    );
  };

  queueMicrotask(() => document.getElementById(id('code'))?.focus());

  return (
    <form class="form form-wide" onSubmit={submitWith(save)} aria-labelledby={id('legend')} novalidate>
      <h3 id={id('legend')}>{v ? t('admin.vouchers.editTitle', { code: v.code }) : t('admin.vouchers.addTitle')}</h3>
      <div class="field-row">
        <TextField
          id={id('code')}
          label={t('admin.vouchers.field.code')}
          value={code()}
          onInput={setCode}
          maxLength={64}
          required
          autocomplete="off"
          spellcheck={false}
          hint={t('admin.vouchers.field.codeHint')}
          error={errors().code}
        />
        <SelectField
          id={id('kind')}
          label={t('admin.vouchers.field.kind')}
          value={kind()}
          options={VOUCHER_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
          onChange={setKind}
          error={errors().kind}
        />
        <TextField
          id={id('value')}
          label={
            kind() === 'percent'
              ? t('admin.vouchers.field.percent')
              : kind() === 'fixed'
                ? t('admin.vouchers.field.amountOff', { currency: props.event.currency })
                : t('admin.vouchers.field.setPrice', { currency: props.event.currency })
          }
          inputMode="decimal"
          value={value()}
          onInput={setValue}
          required
          error={errors().value}
        />
      </div>
      <fieldset class="form" style={{ 'max-width': 'none' }} aria-describedby={errors().categoryIds ? `${id('categoryIds')}-error` : id('categories-hint')}>
        <legend id={id('categoryIds')} tabindex="-1">
          {t('admin.vouchers.field.categories')}
        </legend>
        <p id={id('categories-hint')} class="field-hint">
          {t('admin.vouchers.field.categoriesHint')}
        </p>
        <Show when={props.categories.length === 0}>
          <p class="muted">{t('admin.tickets.none')}</p>
        </Show>
        <For each={props.categories}>
          {(category) => (
            <CheckboxField
              id={id(`category-${category.id}`)}
              label={category.hidden ? t('admin.vouchers.hiddenCategory', { name: category.name }) : category.name}
              checked={categoryIds().includes(category.id)}
              onChange={(on) => toggleCategory(category.id, on)}
            />
          )}
        </For>
        <Show when={errors().categoryIds}>
          <p id={`${id('categoryIds')}-error`} class="form-error">
            {errors().categoryIds}
          </p>
        </Show>
      </fieldset>
      <CheckboxField
        id={id('unlocksHidden')}
        label={t('admin.vouchers.field.unlocksHidden')}
        checked={unlocksHidden()}
        onChange={setUnlocksHidden}
        hint={t('admin.vouchers.field.unlocksHiddenHint')}
      />
      <div class="field-row">
        <TextField
          id={id('maxUses')}
          label={t('admin.vouchers.field.maxUses')}
          inputMode="numeric"
          value={maxUses()}
          onInput={setMaxUses}
          hint={t('admin.vouchers.field.limitHint')}
          error={errors().maxUses}
        />
        <TextField
          id={id('maxUsesPerEmail')}
          label={t('admin.vouchers.field.maxUsesPerEmail')}
          inputMode="numeric"
          value={maxUsesPerEmail()}
          onInput={setMaxUsesPerEmail}
          hint={t('admin.vouchers.field.limitHint')}
          error={errors().maxUsesPerEmail}
        />
      </div>
      <div class="field-row">
        <TextField
          id={id('validFromUtc')}
          label={t('admin.vouchers.field.validFrom')}
          type="datetime-local"
          value={validFrom()}
          onInput={setValidFrom}
          hint={t('admin.tickets.zoneHint', { zone })}
          error={errors().validFromUtc}
        />
        <TextField
          id={id('validUntilUtc')}
          label={t('admin.vouchers.field.validUntil')}
          type="datetime-local"
          value={validUntil()}
          onInput={setValidUntil}
          hint={t('admin.tickets.zoneHint', { zone })}
          error={errors().validUntilUtc}
        />
      </div>
      <FormError message={saving.error()} />
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={saving.busy()}>
          {saving.busy() ? t('admin.common.saving') : v ? t('admin.tickets.saveChanges') : t('admin.vouchers.create')}
        </button>
        <button type="button" class="button button-quiet" onClick={() => props.onCancel()}>
          {t('admin.tickets.cancel')}
        </button>
      </div>
    </form>
  );
}

/** A row's Edit and Delete buttons (categories and codes alike), each labelled with the row's name. */
function RowActions(props: { editId: string; editLabel: string; deleteLabel: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <div class="button-row">
      <button type="button" id={props.editId} class="button button-small button-quiet" aria-label={props.editLabel} onClick={() => props.onEdit()}>
        {t('admin.tickets.edit')}
      </button>
      <button type="button" class="button button-small button-quiet button-danger-text" aria-label={props.deleteLabel} onClick={() => props.onDelete()}>
        {t('admin.tickets.delete')}
      </button>
    </div>
  );
}
