#include <string>
#include <vector>
#include "widget.hpp"

namespace ui {

class Widget {
public:
    explicit Widget(std::string name) : name_(std::move(name)) {}
    ~Widget() {}
    int size() const { return measure(name_); }

private:
    std::string name_;
};

struct Point {
    int x, y;
};

int measure(const std::string &s) { return static_cast<int>(s.size()); }

}  // namespace ui

void ui::Panel::draw() {
    auto *w = new Widget("panel");
    render(w->size());
    ui::measure("x");
}

int main() {
    ui::Panel p;
    p.draw();
    return 0;
}
