// A small ledger in C++ without the standard library: accounts, money in
// several currencies, a fixed-capacity vector, a journal of entries and the
// reports drawn from it. Sorting the journal's entries instantiates
// insertion_sort on a type without operator<, which g++ rejects deep in the
// template; most of the program has nothing to do with it.

namespace ledger {

using size_t = decltype(sizeof(0));

enum class Currency { EUR, USD, GBP, JPY, CHF };

inline const char *code(Currency c) {
    switch (c) {
    case Currency::EUR: return "EUR";
    case Currency::USD: return "USD";
    case Currency::GBP: return "GBP";
    case Currency::JPY: return "JPY";
    case Currency::CHF: return "CHF";
    }
    return "???";
}

inline long rate_to_cents(Currency from, Currency to) {
    if (from == to) return 100;
    long table[5] = {100, 108, 85, 15900, 96};
    return table[static_cast<int>(to)] * 100 / table[static_cast<int>(from)];
}

struct Money {
    long cents;
    Currency currency;

    Money() : cents(0), currency(Currency::EUR) {}
    Money(long c, Currency cur) : cents(c), currency(cur) {}

    Money in(Currency to) const { return Money(cents * rate_to_cents(currency, to) / 100, to); }
    Money operator+(const Money &o) const { return Money(cents + o.in(currency).cents, currency); }
    Money operator-(const Money &o) const { return Money(cents - o.in(currency).cents, currency); }
    Money scaled(long num, long den) const { return Money(cents * num / den, currency); }
    bool is_zero() const { return cents == 0; }
    bool is_negative() const { return cents < 0; }
};

template <typename T, size_t N>
class fixed_vector {
  public:
    fixed_vector() : size_(0) {}
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == N; }
    void push_back(const T &value) {
        if (!full()) items_[size_++] = value;
    }
    void pop_back() {
        if (!empty()) --size_;
    }
    T &operator[](size_t i) { return items_[i]; }
    const T &operator[](size_t i) const { return items_[i]; }
    T *begin() { return items_; }
    T *end() { return items_ + size_; }
    const T *begin() const { return items_; }
    const T *end() const { return items_ + size_; }
    void clear() { size_ = 0; }

  private:
    T items_[N];
    size_t size_;
};

template <typename T>
void swap_values(T &a, T &b) {
    T t = a;
    a = b;
    b = t;
}

template <typename It>
void insertion_sort(It first, It last) {
    for (It i = first; i != last; ++i) {
        for (It j = i; j != first && *j < *(j - 1); --j) {
            swap_values(*j, *(j - 1));
        }
    }
}

template <typename It, typename F>
long count_if(It first, It last, F pred) {
    long n = 0;
    for (; first != last; ++first)
        if (pred(*first)) ++n;
    return n;
}

template <typename It, typename T, typename F>
T fold(It first, It last, T init, F op) {
    for (; first != last; ++first) init = op(init, *first);
    return init;
}

enum class Kind { Asset, Liability, Equity, Income, Expense };

struct Account {
    int id;
    Kind kind;
    Currency currency;
    Money balance;
    const char *name;

    Account() : id(0), kind(Kind::Asset), currency(Currency::EUR), name("") {}
    Account(int i, Kind k, Currency c, const char *n)
        : id(i), kind(k), currency(c), balance(0, c), name(n) {}

    bool debit_increases() const { return kind == Kind::Asset || kind == Kind::Expense; }
    void post(const Money &amount, bool debit) {
        Money m = amount.in(currency);
        if (debit == debit_increases())
            balance = balance + m;
        else
            balance = balance - m;
    }
};

struct Entry {
    int day;
    int debit_account;
    int credit_account;
    Money amount;
    const char *memo;
};

class Chart {
  public:
    int add(Kind kind, Currency currency, const char *name) {
        int id = static_cast<int>(accounts_.size()) + 1;
        accounts_.push_back(Account(id, kind, currency, name));
        return id;
    }
    Account *find(int id) {
        for (Account &a : accounts_)
            if (a.id == id) return &a;
        return nullptr;
    }
    const fixed_vector<Account, 64> &all() const { return accounts_; }
    Money total(Kind kind, Currency in) const {
        Money sum(0, in);
        for (const Account &a : accounts_)
            if (a.kind == kind) sum = sum + a.balance;
        return sum;
    }

  private:
    fixed_vector<Account, 64> accounts_;
};

class Journal {
  public:
    explicit Journal(Chart &chart) : chart_(chart) {}
    bool record(const Entry &e) {
        Account *d = chart_.find(e.debit_account);
        Account *c = chart_.find(e.credit_account);
        if (!d || !c || e.amount.is_negative()) return false;
        d->post(e.amount, true);
        c->post(e.amount, false);
        entries_.push_back(e);
        return true;
    }
    void sort_by_day() { insertion_sort(entries_.begin(), entries_.end()); }
    const fixed_vector<Entry, 256> &entries() const { return entries_; }
    long count_on(int day) const {
        return count_if(entries_.begin(), entries_.end(), [day](const Entry &e) { return e.day == day; });
    }

  private:
    Chart &chart_;
    fixed_vector<Entry, 256> entries_;
};

inline Money total_asset(const Chart &chart, Currency in) {
    return chart.total(Kind::Asset, in);
}

inline long accounts_of_kind_asset(const Chart &chart) {
    return count_if(chart.all().begin(), chart.all().end(),
                    [](const Account &a) { return a.kind == Kind::Asset; });
}

inline Money total_liability(const Chart &chart, Currency in) {
    return chart.total(Kind::Liability, in);
}

inline long accounts_of_kind_liability(const Chart &chart) {
    return count_if(chart.all().begin(), chart.all().end(),
                    [](const Account &a) { return a.kind == Kind::Liability; });
}

inline Money total_equity(const Chart &chart, Currency in) {
    return chart.total(Kind::Equity, in);
}

inline long accounts_of_kind_equity(const Chart &chart) {
    return count_if(chart.all().begin(), chart.all().end(),
                    [](const Account &a) { return a.kind == Kind::Equity; });
}

inline Money total_income(const Chart &chart, Currency in) {
    return chart.total(Kind::Income, in);
}

inline long accounts_of_kind_income(const Chart &chart) {
    return count_if(chart.all().begin(), chart.all().end(),
                    [](const Account &a) { return a.kind == Kind::Income; });
}

inline Money total_expense(const Chart &chart, Currency in) {
    return chart.total(Kind::Expense, in);
}

inline long accounts_of_kind_expense(const Chart &chart) {
    return count_if(chart.all().begin(), chart.all().end(),
                    [](const Account &a) { return a.kind == Kind::Expense; });
}

struct Totals {
    Money assets, liabilities, equity, income, expenses;
};

inline Totals totals(const Chart &chart, Currency in) {
    Totals t;
    t.assets = total_asset(chart, in);
    t.liabilities = total_liability(chart, in);
    t.equity = total_equity(chart, in);
    t.income = total_income(chart, in);
    t.expenses = total_expense(chart, in);
    return t;
}

inline bool balanced(const Totals &t) {
    Money left = t.assets + t.expenses;
    Money right = t.liabilities + t.equity + t.income;
    return (left - right).is_zero();
}

inline Money net_income(const Totals &t) { return t.income - t.expenses; }

inline long largest_entry_cents(const Journal &j, Currency in) {
    return fold(j.entries().begin(), j.entries().end(), 0L, [in](long best, const Entry &e) {
        long c = e.amount.in(in).cents;
        return c > best ? c : best;
    });
}

class Formatter {
  public:
    Formatter() : length_(0) { buffer_[0] = 0; }
    Formatter &text(const char *s) {
        while (*s && length_ + 1 < sizeof buffer_) buffer_[length_++] = *s++;
        buffer_[length_] = 0;
        return *this;
    }
    Formatter &number(long n) {
        char digits[24];
        int k = 0;
        bool negative = n < 0;
        unsigned long u = negative ? 0UL - static_cast<unsigned long>(n) : static_cast<unsigned long>(n);
        do {
            digits[k++] = static_cast<char>('0' + u % 10);
            u /= 10;
        } while (u);
        if (negative) text("-");
        while (k) {
            char one[2] = {digits[--k], 0};
            text(one);
        }
        return *this;
    }
    Formatter &money(const Money &m) {
        number(m.cents / 100).text(".");
        long c = m.cents % 100;
        if (c < 0) c = -c;
        if (c < 10) text("0");
        return number(c).text(" ").text(code(m.currency));
    }
    const char *str() const { return buffer_; }
    size_t length() const { return length_; }

  private:
    char buffer_[512];
    size_t length_;
};

inline const char *describe(const Totals &t, Formatter &f) {
    f.text("assets ").money(t.assets).text(", liabilities ").money(t.liabilities);
    f.text(", equity ").money(t.equity).text(", net income ").money(net_income(t));
    return f.str();
}

struct Budget_quarterly {
    Money planned[3];
    Money spent[3];

    Money remaining(int month) const { return planned[month] - spent[month]; }
    Money total_planned(Currency in) const {
        Money sum(0, in);
        for (int m = 0; m < 3; ++m) sum = sum + planned[m];
        return sum;
    }
    int months_over() const {
        int n = 0;
        for (int m = 0; m < 3; ++m)
            if (remaining(m).is_negative()) ++n;
        return n;
    }
};

struct Budget_half_yearly {
    Money planned[6];
    Money spent[6];

    Money remaining(int month) const { return planned[month] - spent[month]; }
    Money total_planned(Currency in) const {
        Money sum(0, in);
        for (int m = 0; m < 6; ++m) sum = sum + planned[m];
        return sum;
    }
    int months_over() const {
        int n = 0;
        for (int m = 0; m < 6; ++m)
            if (remaining(m).is_negative()) ++n;
        return n;
    }
};

struct Budget_yearly {
    Money planned[12];
    Money spent[12];

    Money remaining(int month) const { return planned[month] - spent[month]; }
    Money total_planned(Currency in) const {
        Money sum(0, in);
        for (int m = 0; m < 12; ++m) sum = sum + planned[m];
        return sum;
    }
    int months_over() const {
        int n = 0;
        for (int m = 0; m < 12; ++m)
            if (remaining(m).is_negative()) ++n;
        return n;
    }
};

inline int day_of_year(int month, int day) {
    static const int starts[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    return starts[(month - 1) % 12] + day;
}

inline Entry entry(int month, int day, int debit, int credit, long cents, const char *memo) {
    Entry e;
    e.day = day_of_year(month, day);
    e.debit_account = debit;
    e.credit_account = credit;
    e.amount = Money(cents, Currency::EUR);
    e.memo = memo;
    return e;
}

} // namespace ledger

int close_the_books() {
    using namespace ledger;
    Chart chart;
    int cash = chart.add(Kind::Asset, Currency::EUR, "cash");
    int bank = chart.add(Kind::Asset, Currency::USD, "bank");
    int loan = chart.add(Kind::Liability, Currency::EUR, "loan");
    int capital = chart.add(Kind::Equity, Currency::EUR, "capital");
    int sales = chart.add(Kind::Income, Currency::EUR, "sales");
    int rent = chart.add(Kind::Expense, Currency::EUR, "rent");
    Journal journal(chart);
    journal.record(entry(1, 2, cash, capital, 1000000, "opening"));
    journal.record(entry(1, 5, bank, loan, 500000, "loan"));
    journal.record(entry(2, 1, rent, cash, 120000, "rent"));
    journal.record(entry(1, 20, cash, sales, 340000, "sales"));
    journal.sort_by_day();
    Totals t = totals(chart, Currency::EUR);
    Formatter f;
    describe(t, f);
    Budget_quarterly q;
    return balanced(t) && q.months_over() == 0 ? static_cast<int>(f.length()) : -1;
}
