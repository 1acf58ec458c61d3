package game

import (
	"reflect"
	"strconv"
	"testing"
)

func TestRankSharesPlacesOnTies(t *testing.T) {
	money := []int{300, 1500, 300, 0}
	st := Rank(4, func(a, b int) int { return money[b] - money[a] },
		func(seat int) []string { return []string{strconv.Itoa(money[seat])} },
		func(seat int) string {
			if money[seat] == 0 {
				return "bankrupt"
			}
			return ""
		})
	var got []string
	for _, s := range st.Seats {
		got = append(got, strconv.Itoa(s.Place)+":"+strconv.Itoa(s.Seat)+":"+s.Values[0]+":"+s.Note)
	}
	want := []string{"1:1:1500:", "2:0:300:", "2:2:300:", "4:3:0:bankrupt"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ranking %v, want %v", got, want)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
